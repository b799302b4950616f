import Dispatch
import Foundation
import PropsCatalog
import StorybookTransport

/// Who is on each story: its WebSocket subscribers (with the name and kind they identified
/// themselves with and the field they focus) and the MCP agents that used it lately. Whenever that
/// list changes, every subscriber of the story gets `{"type": "presence", "story", "viewers"}`,
/// queued with a coalescing key so a slow subscriber only ever holds the latest list.
///
/// The list is sent once the app queue has done the work already waiting on it, once for all the
/// changes made meanwhile: when many connections join or leave a story at once, each would otherwise
/// send the whole list to all the others (n joins, n lists of up to n viewers to up to n subscribers).
///
/// `@unchecked Sendable`: used on the app's serial queue only; its scheduler runs expiries there too.
final class PresenceBoard: @unchecked Sendable {
    /// Runs `work` after `delay` seconds on the app queue; with a delay of 0, after the work already
    /// waiting on it (lists are sent that way).
    typealias Scheduler = (_ delay: TimeInterval, _ work: @escaping @Sendable () -> Void) -> Void

    /// How long an MCP client stays listed on a story after its last call about it.
    static let defaultAgentLinger: TimeInterval = 60

    /// One entry of a story's viewer list.
    struct Viewer: Equatable {
        let id: String
        let name: String
        let kind: ChangeAuthor.Kind
        /// The JSON Pointer of the field being edited on this story, if any.
        let focus: String?

        var json: JSONValue {
            ["id": .string(id), "name": .string(name), "kind": .string(kind.rawValue), "focus": focus.map(JSONValue.string) ?? .null]
        }
    }

    private struct Agent {
        let name: String
        var focus: String?
        /// When it leaves the list (`DispatchTime` nanoseconds); one expiry check is pending at a time.
        var until: UInt64
    }

    private let hub: StoryHub
    private let schedule: Scheduler
    private let agentLinger: TimeInterval
    private var identities: [ConnectionID: ChangeAuthor] = [:]
    private var focuses: [ConnectionID: (story: String, path: String)] = [:]
    /// Story -> agent viewer id -> agent.
    private var agents: [String: [String: Agent]] = [:]
    /// Stories whose list changed since it was last sent; a send is scheduled while there are any.
    private var unsent: Set<String> = []

    init(hub: StoryHub, agentLinger: TimeInterval = defaultAgentLinger, schedule: @escaping Scheduler) {
        self.hub = hub
        self.agentLinger = agentLinger
        self.schedule = schedule
    }

    /// The author a connection identified itself as, nil while anonymous.
    func author(of connection: ConnectionID) -> ChangeAuthor? {
        hub.assertOnQueue()
        return identities[connection]
    }

    /// Names a connection; its stories' viewers hear of it.
    func identify(_ connection: ConnectionID, as author: ChangeAuthor) {
        hub.assertOnQueue()
        identities[connection] = author
        for story in hub.stories(subscribedBy: connection) { publish(story) }
    }

    /// Sets (or, with a nil path, clears) the field a connection is editing.
    func focus(_ connection: ConnectionID, story: String, path: String?) {
        hub.assertOnQueue()
        // The same focus again (a page asking for its field's template anew): nothing to tell.
        if let path, let current = focuses[connection], current.story == story, current.path == path { return }
        let previous = focuses[connection]?.story
        if let path {
            focuses[connection] = (story, path)
        } else {
            focuses[connection] = nil
        }
        if let previous, previous != story { publish(previous) }
        publish(story)
    }

    /// Forgets a closed connection; call before the hub drops its subscriptions, with them.
    func disconnect(_ connection: ConnectionID, from stories: Set<String>) {
        hub.assertOnQueue()
        identities[connection] = nil
        focuses[connection] = nil
        for story in stories { publish(story) }
    }

    /// Lists an agent on a story until `agentLinger` seconds after its last call; `focus` marks the
    /// field it just changed.
    func touch(agent id: String, name: String, story: String, focus: String? = nil) {
        hub.assertOnQueue()
        let until = DispatchTime.now().uptimeNanoseconds + UInt64(agentLinger * 1e9)
        let previous = agents[story]?[id]
        let focus = focus ?? previous?.focus
        agents[story, default: [:]][id] = Agent(name: name, focus: focus, until: until)
        guard let previous else {
            publish(story)
            scheduleExpiry(of: id, on: story, after: agentLinger)
            return
        }
        if previous.focus != focus || previous.name != name { publish(story) }
    }

    private func scheduleExpiry(of id: String, on story: String, after delay: TimeInterval) {
        schedule(delay) { [weak self] in self?.expire(agent: id, story: story) }
    }

    /// Takes an agent off every story at once (its MCP session was dropped to make room).
    func remove(agent id: String) {
        hub.assertOnQueue()
        for story in agents.keys where agents[story]?.removeValue(forKey: id) != nil {
            publish(story)
        }
    }

    private func expire(agent id: String, story: String) {
        guard let agent = agents[story]?[id] else { return }
        let now = DispatchTime.now().uptimeNanoseconds
        guard agent.until <= now else {
            scheduleExpiry(of: id, on: story, after: TimeInterval(agent.until - now) / 1e9)  // used again since
            return
        }
        agents[story]?[id] = nil
        if agents[story]?.isEmpty == true { agents[story] = nil }
        publish(story)
    }

    /// Everyone on a story, ordered by id: subscribers, then agents.
    func viewers(of story: String) -> [Viewer] {
        hub.assertOnQueue()
        let people = hub.subscribers(of: story).sorted { $0.raw < $1.raw }.map { connection in
            let author = identities[connection]
            let focus = focuses[connection].flatMap { $0.story == story ? $0.path : nil }
            return Viewer(id: "ws:\(connection.raw)", name: author?.name ?? "ws:\(connection.raw)",
                          kind: author?.kind ?? .script, focus: focus)
        }
        let machines = (agents[story] ?? [:]).sorted { $0.key < $1.key }.map { id, agent in
            Viewer(id: id, name: agent.name, kind: .agent, focus: agent.focus)
        }
        return people + machines
    }

    /// `{"type": "presence", "story", "viewers": [...]}`.
    func message(for story: String) -> JSONValue {
        hub.assertOnQueue()
        return ["type": "presence", "story": .string(story), "viewers": .array(viewers(of: story).map(\.json))]
    }

    /// Sends a story's viewer list to its subscribers, once the work already waiting on the app queue
    /// is done (with every other change made before then).
    func publish(_ story: String) {
        hub.assertOnQueue()
        guard unsent.insert(story).inserted, unsent.count == 1 else { return }  // else a send is already scheduled
        schedule(0) { [weak self] in self?.sendUnsent() }
    }

    /// Sends the list of every story that changed since the last send.
    private func sendUnsent() {
        hub.assertOnQueue()
        let stories = unsent.sorted()
        unsent = []
        for story in stories {
            hub.broadcast(message(for: story).serializedBytes(), story: story, coalescingKey: "presence:\(story)")
        }
    }
}
