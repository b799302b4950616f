import DemoCatalog
import Logging
import PropsCatalog
@testable import StorybookServer
import StorybookTransport
import Synchronization
import Testing

/// Presence over the WebSocket protocol and MCP agents, without sockets: who is on a story, what
/// they focus, and who each change is attributed to.
@Suite struct PresenceTests {
    let sink = RecordingSink()
    let hub: StoryHub
    let presence: PresenceBoard
    let handler: WebSocketHandler
    let scheduled = ScheduledWork()
    let ada = ConnectionID(raw: 1)
    let bob = ConnectionID(raw: 2)
    let story = "profile-user-profile--default"

    init() throws {
        hub = StoryHub(catalog: try DemoCatalog.make(), sink: sink, logger: Logger(label: "test"))
        let scheduled = self.scheduled
        // Lists are sent at once (the app queue would send them after its waiting work); expiries wait.
        // An agent's linger is over as soon as its expiry runs, which waits for the test.
        presence = PresenceBoard(hub: hub, agentLinger: 1e-9) { delay, work in delay == 0 ? work() : scheduled.add(work) }
        handler = WebSocketHandler(hub: hub, replays: ReplayController(hub: hub) { _, work in work() }, presence: presence, renderers: RendererRegistry(hub: hub, logger: Logger(label: "test")),
                                   maxJSONDepth: 16, maxMessageBytes: 1 << 20, logger: Logger(label: "test"))
    }

    private func send(_ text: String, from connection: ConnectionID) {
        handler.received(Array(text.utf8), from: connection)
    }

    private func lastPresence(_ connection: ConnectionID) -> [JSONValue]? {
        sink.received(by: connection).last { $0["type"] == "presence" }?["viewers"]?.arrayValue
    }

    @Test func subscribersSeeEachOtherWithNamesAndFocus() {
        send(#"{"type": "identify", "name": "Ada", "kind": "browser"}"#, from: ada)
        send(#"{"type": "subscribe", "story": "profile-user-profile--default"}"#, from: ada)
        #expect(lastPresence(ada) == [["id": "ws:1", "name": "Ada", "kind": "browser", "focus": nil]])
        send(#"{"type": "subscribe", "story": "profile-user-profile--default"}"#, from: bob)
        send(#"{"type": "focus", "story": "profile-user-profile--default", "path": "/email"}"#, from: bob)
        #expect(lastPresence(ada) == [
            ["id": "ws:1", "name": "Ada", "kind": "browser", "focus": nil],
            ["id": "ws:2", "name": "ws:2", "kind": "script", "focus": "/email"],
        ])
        #expect(sink.coalescingKeys(for: ada).last == "presence:\(story)")
        // The same focus again (a page asking for its field's template anew) tells nobody anything.
        let presences = sink.received(by: ada).count { $0["type"] == "presence" }
        send(#"{"type": "focus", "story": "profile-user-profile--default", "path": "/email"}"#, from: bob)
        #expect(sink.received(by: ada).count { $0["type"] == "presence" } == presences)
        send(#"{"type": "focus", "story": "profile-user-profile--default", "path": null}"#, from: bob)
        #expect(lastPresence(ada)?.last?["focus"] == .null)
        handler.closed(bob)
        #expect(lastPresence(ada)?.count == 1)
        send(#"{"type": "unsubscribe", "story": "profile-user-profile--default"}"#, from: ada)
        #expect(hub.subscribers(of: story).isEmpty)
    }

    @Test func badIdentifyAndFocusAreRefusedWithTheirField() {
        send(#"{"type": "identify", "name": "Ada", "kind": "robot"}"#, from: ada)
        #expect(sink.received(by: ada).last?["path"] == "/kind")
        send(#"{"type": "identify", "name": "  ", "kind": "browser"}"#, from: ada)
        #expect(sink.received(by: ada).last?["path"] == "/name")
        send(#"{"type": "focus", "story": "profile-user-profile--default", "path": "name"}"#, from: ada)
        #expect(sink.received(by: ada).last?["code"] == "bad-message")
        send(#"{"type": "focus", "story": "profile-user-profile--default"}"#, from: ada)
        #expect(sink.received(by: ada).last?["path"] == "/path")
        send(#"{"type": "focus", "story": "nope", "path": "/name"}"#, from: ada)
        #expect(sink.received(by: ada).last?["code"] == "not-found")
        #expect(presence.author(of: ada) == nil)
    }

    @Test func aFocusOnAPointerThatIsNotOneIsRefusedAndChangesNothing() {
        send(#"{"type": "subscribe", "story": "profile-user-profile--default"}"#, from: ada)
        send(#"{"type": "subscribe", "story": "profile-user-profile--default"}"#, from: bob)
        send(#"{"type": "focus", "story": "profile-user-profile--default", "path": "/email"}"#, from: bob)
        for bad in [#""/~2""#, #""/name~""#, #""/a/~x/b""#] {
            let before = sink.received(by: ada).count
            send(#"{"type": "focus", "story": "profile-user-profile--default", "path": \#(bad)}"#, from: bob)
            let refusal = sink.received(by: bob).last
            #expect(refusal?["code"] == "bad-message")
            #expect(refusal?["path"] == "/path")
            #expect(refusal?["message"]?.stringValue?.contains("'~' must be followed by '0' or '1'") == true)
            #expect(sink.received(by: ada).count == before)  // no presence change went out
        }
        #expect(lastPresence(ada)?.last?["focus"] == "/email")
        // A well-formed pointer to a member the props do not have (yet) is kept: the field may come with
        // the next state.
        send(#"{"type": "focus", "story": "profile-user-profile--default", "path": "/nickname~1alias"}"#, from: bob)
        #expect(lastPresence(ada)?.last?["focus"] == "/nickname~1alias")
    }

    @Test func editsCarryTheIdentifiedAuthor() throws {
        send(#"{"type": "identify", "name": "Ada", "kind": "browser"}"#, from: ada)
        send(#"{"type": "subscribe", "story": "profile-user-profile--default"}"#, from: bob)
        send(#"{"type": "patch", "story": "profile-user-profile--default", "patch": [{"op": "replace", "path": "/name", "value": "G"}]}"#, from: ada)
        let state = try #require(sink.received(by: bob).last { $0["type"] == "state" })
        #expect(state["cause"]?["author"] == ["name": "Ada", "kind": "browser"])
        #expect(state["cause"]?["source"] == "ws:1")
        let entry = try hub.session(story).get().history.entries.last
        #expect(entry?.json["author"] == ["name": "Ada", "kind": "browser"])
    }

    @Test func joinsWaitingTogetherSendOneListToEachViewer() throws {
        let sink = RecordingSink()
        let hub = StoryHub(catalog: try DemoCatalog.make(), sink: sink, logger: Logger(label: "test"))
        let later = ScheduledWork()
        let board = PresenceBoard(hub: hub) { delay, work in
            #expect(delay == 0)  // after the waiting work, not after a timer
            later.add(work)
        }
        let handler = WebSocketHandler(hub: hub, replays: ReplayController(hub: hub) { _, work in work() }, presence: board,
                                       renderers: RendererRegistry(hub: hub, logger: Logger(label: "test")),
                                       maxJSONDepth: 16, maxMessageBytes: 1 << 20, logger: Logger(label: "test"))
        let viewers = (1...30).map { ConnectionID(raw: UInt64($0)) }
        let lists = { (viewer: ConnectionID) in sink.received(by: viewer).filter { $0["type"] == "presence" } }
        for viewer in viewers {
            handler.received(Array(#"{"type": "subscribe", "story": "profile-user-profile--default"}"#.utf8), from: viewer)
        }
        // 30 joins: one send, after the work already waiting (each join alone would send 30 lists)
        #expect(later.all.count == 1)
        #expect(viewers.allSatisfy { lists($0).isEmpty })
        later.all[0]()
        for viewer in viewers {
            #expect(lists(viewer).count == 1)
            #expect(lists(viewer).first?["viewers"]?.arrayValue?.count == 30)
        }
        handler.closed(viewers[0])
        #expect(later.all.count == 2)
        later.all[1]()
        #expect(lists(viewers[1]).last?["viewers"]?.arrayValue?.count == 29)
        #expect(lists(viewers[0]).count == 1)
        withExtendedLifetime((handler, board)) {}
    }

    @Test func agentsAreListedUntilTheirLingerEnds() {
        send(#"{"type": "subscribe", "story": "profile-user-profile--default"}"#, from: ada)
        presence.touch(agent: "mcp:1234abcd", name: "claude-code", story: story, focus: "/name")
        #expect(lastPresence(ada)?.last == ["id": "mcp:1234abcd", "name": "claude-code", "kind": "agent", "focus": "/name"])
        let expiries = scheduled.all
        #expect(expiries.count == 1)
        for work in expiries { work() }
        #expect(lastPresence(ada)?.count == 1)
    }
}
