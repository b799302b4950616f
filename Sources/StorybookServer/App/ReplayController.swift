import Foundation
import PropsCatalog

/// Plays recorded states of a story back at their recorded pace (or faster), each as a new
/// version of kind `replay` through the hub, so every subscriber sees it as it happens.
/// One replay per story at a time; starting another stops the first.
///
/// `@unchecked Sendable`: it is used on the app's serial queue only, and its scheduler runs the
/// scheduled steps on that same queue, so its state is never touched from two threads.
final class ReplayController: @unchecked Sendable {
    /// Runs `work` after `delay` seconds on the app queue.
    typealias Scheduler = (_ delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> Void

    private struct Replay {
        let id: Int
        let recording: Recording
        let speed: Double
        let deadlines: [TimeInterval]
        let start: Date
        var played = 0
    }

    private let hub: StoryHub
    private let schedule: Scheduler
    private var replays: [String: Replay] = [:]
    private var nextID = 1

    init(hub: StoryHub, schedule: @escaping Scheduler) {
        self.hub = hub
        self.schedule = schedule
    }

    /// Starts playing `recording` on its story; `speed` 2 plays twice as fast, 0 plays every step at once.
    func start(_ recording: Recording, speed: Double) -> JSONValue {
        hub.assertOnQueue()
        stop(recording.story, reason: "replaced")
        let delays = recording.delays(speed: speed)
        var deadlines: [TimeInterval] = []
        var total: TimeInterval = 0
        for delay in delays {
            total += delay
            deadlines.append(total)
        }
        let replay = Replay(id: nextID, recording: recording, speed: speed, deadlines: deadlines, start: Date())
        nextID += 1
        replays[recording.story] = replay
        let status = self.status(replay, "started")
        hub.broadcast(status, story: recording.story, coalesce: false)
        scheduleNext(replay)
        return status
    }

    /// Stops the story's replay; false when none was playing.
    @discardableResult
    func stop(_ story: String, reason: String = "stopped") -> Bool {
        hub.assertOnQueue()
        guard let replay = replays.removeValue(forKey: story) else { return false }
        hub.broadcast(status(replay, reason), story: story, coalesce: false)
        return true
    }

    private func scheduleNext(_ replay: Replay) {
        let story = replay.recording.story
        let due = replay.start.addingTimeInterval(replay.deadlines[replay.played]).timeIntervalSinceNow
        schedule(max(due, 0)) { [self] in
            step(story, id: replay.id)
        }
    }

    private func step(_ story: String, id: Int) {
        guard var replay = replays[story], replay.id == id else { return }
        let step = replay.recording.steps[replay.played]
        let result = hub.apply(.replay(step.props), to: story, source: .replay, ref: "replay-\(id)-\(step.version)")
        replay.played += 1
        if case .failure(let error) = result {
            replays[story] = nil
            hub.broadcast(status(replay, "failed", error: error), story: story, coalesce: false)
            return
        }
        if replay.played == replay.recording.steps.count {
            replays[story] = nil
            hub.broadcast(status(replay, "finished"), story: story, coalesce: false)
            return
        }
        replays[story] = replay
        scheduleNext(replay)
    }

    /// The `started` status of the story's replay, with the steps played so far; nil when none plays.
    /// A new subscriber gets it, so a page that subscribes (or reconnects) mid-replay shows it playing.
    func running(_ story: String) -> JSONValue? {
        hub.assertOnQueue()
        return replays[story].map { status($0, "started") }
    }

    private func status(_ replay: Replay, _ status: String, error: APIError? = nil) -> JSONValue {
        var members: [String: JSONValue] = [
            "type": "replay", "story": .string(replay.recording.story), "status": .string(status),
            "replay": .integer(Int64(replay.id)), "steps": .integer(Int64(replay.recording.steps.count)),
            "played": .integer(Int64(replay.played)), "speed": .double(replay.speed),
            "from": .integer(Int64(replay.recording.steps.first?.version ?? 0)),
            "to": .integer(Int64(replay.recording.steps.last?.version ?? 0)),
        ]
        if let error { members["error"] = error.json }
        return .object(members)
    }
}

extension ReplayController {
    /// A replay request, from HTTP or WebSocket: `{["from"], ["to"], ["speed"], ["recording"]}`.
    func start(story: String, request: JSONValue) -> Result<JSONValue, APIError> {
        hub.assertOnQueue()
        let session: StorySession
        switch hub.session(story) {
        case .success(let value): session = value
        case .failure(let error): return .failure(error)
        }
        guard let fields = request.objectValue else {
            return .failure(APIError(.badMessage, "a replay request is a JSON object, found \(request.kindDescription)"))
        }
        let reader = FieldReader(fields: fields)
        do throws(APIError) {
            let speed: Double
            switch request["speed"] {
            case nil: speed = 1
            case .integer(let integer)?: speed = Double(integer)
            case .double(let double)?: speed = double
            case .exactNumber(let text)?:
                // More digits than a double keeps (a speed need not be exact), beyond its range, or
                // so small that a double reads it as 0, which would play every step at once.
                let double = Double(text) ?? .nan
                guard double.isFinite, double != 0 else {
                    throw APIError(.badMessage, "speed must be between 0 and 1000, found \(text) (a double reads it as \(double))", path: "/speed")
                }
                speed = double
            case let other?: throw APIError(.badMessage, "speed must be a number, found \(other.kindDescription)", path: "/speed")
            }
            guard speed >= 0, speed <= 1000 else {
                throw APIError(.badMessage, "speed must be between 0 and 1000, found \(request["speed"]?.serialized() ?? "")", path: "/speed")
            }
            let recording: Recording
            if let imported = request["recording"] {
                do throws(RecordingError) {
                    recording = try Recording(json: imported, story: story, component: session.story.component, limit: hub.sizeLimit)
                } catch {
                    throw APIError(error)
                }
            } else {
                let from = try reader.optionalVersion("from"), to = try reader.optionalVersion("to")
                do throws(RecordingError) {
                    recording = try Recording(session, from: from, to: to)
                } catch {
                    throw APIError(error)
                }
            }
            return .success(start(recording, speed: speed))
        } catch {
            return .failure(error)
        }
    }
}
