import DemoCatalog
import Logging
import PropsCatalog
@testable import StorybookServer
import Testing
@testable import StorybookTransport

@Suite struct ReplayControllerTests {
    let sink = RecordingSink()
    let hub: StoryHub
    let subscriber = ConnectionID(raw: 9)

    init() throws {
        hub = StoryHub(catalog: try DemoCatalog.make(), sink: sink, logger: Logger(label: "test"))
        _ = hub.subscribe(subscriber, to: "profile-user-profile--default")
        for name in ["A", "B"] {
            _ = hub.apply(.patch(try JSONPatch(json: [["op": "replace", "path": "/name", "value": .string(name)]])),
                          to: "profile-user-profile--default", source: .http)
        }
        sink.clear()
    }

    @Test func replaysRecordedStatesInOrderAsNewVersions() throws {
        var delays: [Double] = []
        let replays = ReplayController(hub: hub) { delay, work in delays.append(delay); work() }
        let result = replays.start(story: "profile-user-profile--default", request: ["speed": 0])
        #expect(result.map { $0["status"] } == .success("started"))
        let states = sink.received(by: subscriber).filter { $0["type"] == "state" }
        #expect(states.compactMap { $0["version"]?.integerValue } == [4, 5, 6])
        #expect(states.map { $0["props"]?["name"] } == ["Ada Lovelace", "A", "B"])
        #expect(states.allSatisfy { $0["cause"]?["kind"] == "replay" })
        #expect(sink.received(by: subscriber).last?["status"] == "finished")
        #expect(delays == [0, 0, 0])
    }

    @Test func stopEndsAReplayAndAnImportedRecordingIsValidatedFirst() throws {
        var pending: [@Sendable () -> Void] = []
        let replays = ReplayController(hub: hub) { _, work in pending.append(work) }
        _ = replays.start(story: "profile-user-profile--default", request: [:])
        pending.removeFirst()()
        #expect(replays.stop("profile-user-profile--default"))
        pending.forEach { $0() }
        #expect(sink.received(by: subscriber).filter { $0["type"] == "state" }.count == 1)
        #expect(sink.received(by: subscriber).last?["status"] == "stopped")
        #expect(!replays.stop("profile-user-profile--default"))

        let bad: JSONValue = ["recording": ["v": 1, "base": ["name": 1], "entries": [["at": "2026-01-01T00:00:00Z"]]]]
        guard case .failure(let error) = replays.start(story: "profile-user-profile--default", request: bad) else {
            Issue.record("a bad recording was accepted"); return
        }
        #expect(error.code == .invalidProps)
        #expect(try hub.session("profile-user-profile--default").get().version == 4)
    }

    @Test func aSpeedOrVersionRefusedSaysWhatWasSent() throws {
        let replays = ReplayController(hub: hub) { _, work in work() }
        let cases: [(JSONValue, String)] = [
            (["speed": 2000], "speed must be between 0 and 1000, found 2000"),
            (["speed": -0.5], "speed must be between 0 and 1000, found -0.5"),
            (["speed": .exactNumber("1e400")], "speed must be between 0 and 1000, found 1e400 (a double reads it as inf)"),
            (["speed": .exactNumber("1e-400")], "speed must be between 0 and 1000, found 1e-400 (a double reads it as 0.0)"),
            (["speed": .exactNumber("2000.00000000000000000001")], "speed must be between 0 and 1000, found 2000.00000000000000000001"),
            (["speed": "2"], "speed must be a number, found a string"),
            (["from": 1.5], "from must be an integer, found 1.5"),
            (["to": .exactNumber("1e400")], "to must be an integer, found 1e400"),
            (["from": "1"], "from must be an integer, found a string"),
        ]
        for (request, message) in cases {
            guard case .failure(let error) = replays.start(story: "profile-user-profile--default", request: request) else {
                Issue.record("\(request) was accepted"); continue
            }
            #expect(error.code == .badMessage)
            #expect(error.message == message)
        }
        #expect(sink.received(by: subscriber).isEmpty)
        // More digits than a double keeps, in range: played at the speed a double reads.
        let started = replays.start(story: "profile-user-profile--default", request: ["speed": .exactNumber("1.00000000000000000001")])
        #expect(started.map { $0["status"] } == .success("started"))
        #expect(started.map { $0["speed"] } == .success(.double(1)))
    }

    /// A recording of `count` entries of about 1,100 bytes of props each.
    private func heavyRecording(entries count: Int) -> JSONValue {
        let entries = (0..<count).map { index -> JSONValue in
            ["at": .string("2026-01-01T00:00:\(10 + index)Z"),  // count < 50
             "patch": index == 0 ? [] : [["op": "replace", "path": "/email", "value": .string("e\(index)")]]]
        }
        return ["v": 1, "base": ["name": .string(String(repeating: "n", count: 1_000)), "email": "e", "avatarURL": nil],
                "entries": .array(entries)]
    }

    @Test func anImportedRecordingOverTheHubsLimitAsAWholeIsTooLargeAndChangesNothing() throws {
        hub.sizeLimit = JSONSizeLimit(weight: 10_000)
        let replays = ReplayController(hub: hub) { _, work in work() }
        guard case .failure(let error) = replays.start(story: "profile-user-profile--default",
                                                        request: ["recording": heavyRecording(entries: 20), "speed": 0]) else {
            Issue.record("a recording over the budget was replayed"); return
        }
        #expect(error.code == .tooLarge && error.httpStatus == 413)
        #expect(error.path == "/entries/9")
        #expect(sink.received(by: subscriber).isEmpty)
        #expect(try hub.session("profile-user-profile--default").get().version == 3)

        let result = replays.start(story: "profile-user-profile--default", request: ["recording": heavyRecording(entries: 8), "speed": 0])
        #expect(result.map { $0["status"] } == .success("started"))
        #expect(try hub.session("profile-user-profile--default").get().version == 11)
    }
}
