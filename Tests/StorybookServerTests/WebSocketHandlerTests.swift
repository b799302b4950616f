import DemoCatalog
import Logging
import PropsCatalog
@testable import StorybookServer
import Testing
@testable import StorybookTransport

/// The WebSocket protocol over the hub, without a socket.
@Suite struct WebSocketHandlerTests {
    let sink = RecordingSink()
    let handler: WebSocketHandler
    let alice = ConnectionID(raw: 1)
    let bob = ConnectionID(raw: 2)

    init() throws {
        let hub = StoryHub(catalog: try DemoCatalog.make(), sink: sink, logger: Logger(label: "test"))
        handler = WebSocketHandler(hub: hub, replays: ReplayController(hub: hub) { _, work in work() },
                                   presence: PresenceBoard.sendingAtOnce(hub: hub), renderers: RendererRegistry(hub: hub, logger: Logger(label: "test")),
                                   maxJSONDepth: 16, maxMessageBytes: 1 << 20, logger: Logger(label: "test"))
    }

    private func send(_ text: String, from connection: ConnectionID) {
        handler.received(Array(text.utf8), from: connection)
    }

    private func last(_ connection: ConnectionID) -> JSONValue? {
        sink.received(by: connection).last
    }

    @Test func helloComesFirst() {
        handler.opened(alice)
        #expect(sink.received(by: alice) == [["type": "hello", "protocol": 1, "server": "storybook", "connection": "ws:1",
                                              "maxMessageBytes": 1_048_576, "review": false]])
    }

    @Test func subscribeAnswersWithTheState() {
        send(#"{"type": "subscribe", "story": "profile-user-profile--default"}"#, from: alice)
        #expect(sink.types(for: alice) == ["state", "presence"])
        let state = sink.received(by: alice).first
        #expect(state?["type"] == "state")
        #expect(state?["story"] == "profile-user-profile--default")
        #expect(state?["version"] == 1)
        #expect(state?["props"]?["name"] == "Ada Lovelace")
        #expect(state?["text"]?.stringValue?.contains("ada@example.com") == true)
        #expect(state?["cause"] == nil)
    }

    @Test func editsReachEverySubscriberInVersionOrderWithTheirRef() {
        send(#"{"type": "subscribe", "story": "profile-user-profile--default"}"#, from: alice)
        send(#"{"type": "subscribe", "story": "profile-user-profile--default"}"#, from: bob)
        send(#"{"type": "patch", "story": "profile-user-profile--default", "patch": [{"op": "replace", "path": "/name", "value": "A"}], "ref": "a1"}"#, from: alice)
        send(#"{"type": "replace", "story": "profile-user-profile--default", "props": {"name": "B", "email": "b@x", "avatarURL": null}, "base": 2, "ref": "b1"}"#, from: bob)
        send(#"{"type": "reset", "story": "profile-user-profile--default", "ref": "a2"}"#, from: alice)
        for connection in [alice, bob] {
            let states = sink.received(by: connection).filter { $0["type"] == "state" }
            #expect(states.compactMap { $0["version"]?.integerValue } == [1, 2, 3, 4])
            #expect(states.dropFirst().compactMap { $0["cause"]?["ref"]?.stringValue } == ["a1", "b1", "a2"])
        }
    }

    /// An edit needs no subscription; its sender, hearing no state of the story, gets an `applied`
    /// with the version when the edit has a ref (a subscriber learns it from the state, and gets no
    /// `applied`; a script that sends no ref may never read, and gets nothing).
    @Test func editsNeedNoSubscription() {
        send(#"{"type": "subscribe", "story": "profile-user-profile--default"}"#, from: alice)
        send(#"{"type": "reset", "story": "profile-user-profile--default", "ref": "script"}"#, from: bob)
        #expect(last(alice)?["version"] == 2)
        #expect(sink.received(by: bob) == [["type": "applied", "story": "profile-user-profile--default", "version": 2, "ref": "script"]])
        send(#"{"type": "dispatch", "story": "profile-user-profile--default", "command": "nothing-suggested", "ref": "d"}"#, from: bob)
        #expect(last(bob) == ["type": "applied", "story": "profile-user-profile--default", "version": 2, "ref": "d"])
        send(#"{"type": "reset", "story": "profile-user-profile--default"}"#, from: bob)
        #expect(sink.received(by: bob).count == 2)
        send(#"{"type": "patch", "story": "profile-user-profile--default", "patch": [{"op": "replace", "path": "/name", "value": "A"}], "ref": "a"}"#, from: alice)
        #expect(sink.types(for: alice) == ["state", "presence", "state", "action", "state", "state"])
    }

    @Test(arguments: [
        ("{nope", "bad-json", nil as String?, nil as String?),
        (String(repeating: "[", count: 40) + String(repeating: "]", count: 40), "bad-json", nil, nil),
        ("[1, 2]", "bad-message", nil, nil),
        (#"{"story": "x"}"#, "bad-message", "/type", nil),
        (#"{"type": 7}"#, "bad-message", "/type", nil),
        (#"{"type": "subscribe"}"#, "bad-message", "/story", nil),
        (#"{"type": "subscribe", "story": 5}"#, "bad-message", "/story", nil),
        (#"{"type": "replace", "story": "profile-user-profile--default", "ref": "r"}"#, "bad-message", "/props", "r"),
        (#"{"type": "replace", "ref": "r"}"#, "bad-message", "/story", "r"),
        (#"{"type": "patch"}"#, "bad-message", "/story", nil),
        (#"{"type": "patch", "story": "profile-user-profile--default", "patch": {"op": "remove", "path": "/name"}, "ref": "r"}"#, "bad-message", "/patch", "r"),
        (#"{"type": "seek"}"#, "bad-message", "/story", nil),
        (#"{"type": "reset", "story": "profile-user-profile--default", "ref": 7}"#, "bad-message", "/ref", nil),
        (#"{"type": "fly", "story": "profile-user-profile--default", "ref": "r"}"#, "unknown-type", "/type", "r"),
        (#"{"type": "unsubscribe", "story": "profile-user-profile--default"}"#, "not-subscribed", nil, nil),
        (#"{"type": "unsubscribe", "story": "profile-user-profile--default", "ref": "r"}"#, "not-subscribed", nil, "r"),
        (#"{"type": "subscribe", "story": "nope--nope"}"#, "not-found", nil, nil),
        (#"{"type": "subscribe", "story": "nope--nope", "ref": "r"}"#, "not-found", nil, "r"),
        (#"{"type": "focus", "story": "nope--nope", "path": "/name", "ref": "r"}"#, "not-found", nil, "r"),
        (#"{"type": "reset", "story": "profile-user-profile--default", "base": 5, "ref": "r"}"#, "conflict", nil, "r"),
        (#"{"type": "replace", "story": "profile-user-profile--default", "props": {"name": 1}, "ref": "r"}"#, "invalid-props", "/name", "r"),
        (#"{"type": "patch", "story": "profile-user-profile--default", "patch": [{"op": "test", "path": "/name", "value": "no"}], "ref": "r"}"#, "test-failed", "/name", "r"),
        (#"{"type": "patch", "story": "profile-user-profile--default", "patch": [{"op": "jump", "path": "/name"}], "ref": "r"}"#, "invalid-patch", "/name", "r"),
        (#"{"type": "undo", "story": "profile-user-profile--default"}"#, "conflict", nil, nil),
        (#"{"type": "undo", "story": "profile-user-profile--default", "base": "1"}"#, "bad-message", "/base", nil),
        (#"{"type": "patch", "story": "profile-user-profile--default", "patch": [], "undoGroup": 7, "ref": "r"}"#, "bad-message", "/undoGroup", "r"),
        (#"{"type": "patch", "story": "profile-user-profile--default", "patch": [], "undoGroup": "", "ref": "r"}"#, "bad-message", "/undoGroup", "r"),
        (#"{"type": "patch", "story": "profile-user-profile--default", "patch": [], "undoGroup": "\#(String(repeating: "😀", count: 33))", "ref": "r"}"#, "bad-message", "/undoGroup", "r"),
        (#"{"type": "replace", "story": "profile-user-profile--default", "props": {}, "undoGroup": 1, "ref": "r"}"#, "bad-message", "/undoGroup", "r"),
        (#"{"type": "reset", "story": "profile-user-profile--default", "base": -1, "ref": "r"}"#, "bad-message", "/base", "r"),
        (#"{"type": "history", "story": "profile-user-profile--default", "since": -1, "ref": "r"}"#, "bad-message", "/since", "r"),
        (#"{"type": "seek", "story": "profile-user-profile--default", "version": -2, "ref": "r"}"#, "bad-message", "/version", "r"),
    ])
    func errorsGoToTheSenderAloneAndChangeNothing(message: String, code: String, path: String?, ref: String?) {
        send(#"{"type": "subscribe", "story": "profile-user-profile--default"}"#, from: bob)
        sink.clear()
        send(message, from: alice)
        let error = last(alice)
        #expect(sink.received(by: alice).count == 1)
        #expect(error?["type"] == "error")
        #expect(error?["code"] == .string(code))
        #expect(error?["path"] == path.map(JSONValue.string))
        #expect(error?["ref"] == ref.map(JSONValue.string))
        #expect(error?["message"]?.stringValue?.isEmpty == false)
        #expect(sink.received(by: bob).isEmpty)
    }

    /// Patches sent with one `undoGroup` (the browser UI's run of typing in a field) are one step
    /// for `undo`: it goes back to before the first of them.
    @Test func undoTakesBackAnUndoGroupAtOnce() {
        let story = "profile-user-profile--default"
        send(#"{"type": "subscribe", "story": "\#(story)"}"#, from: alice)
        for (index, name) in ["G", "Gr", "Gra"].enumerated() {
            send(#"{"type": "patch", "story": "\#(story)", "patch": [{"op": "replace", "path": "/name", "value": "\#(name)"}], "undoGroup": "t1", "ref": "k\#(index)"}"#, from: alice)
        }
        #expect(last(alice)?["version"] == 4)
        send(#"{"type": "undo", "story": "\#(story)", "ref": "u"}"#, from: alice)
        #expect(last(alice)?["version"] == 5)
        #expect(last(alice)?["props"]?["name"] == "Ada Lovelace")
        #expect(last(alice)?["canUndo"] == false)
        send(#"{"type": "redo", "story": "\#(story)", "ref": "r"}"#, from: alice)
        #expect(last(alice)?["props"]?["name"] == "Gra")
    }

    /// `undo` with `base` undoes the change live at that version only: after someone else's change,
    /// the same undo is refused and changes nothing.
    @Test func undoWithABaseUndoesOnlyTheChangeLiveAtIt() {
        let story = "profile-user-profile--default"
        send(#"{"type": "subscribe", "story": "\#(story)"}"#, from: alice)
        send(#"{"type": "patch", "story": "\#(story)", "patch": [{"op": "replace", "path": "/name", "value": "Two"}]}"#, from: bob)
        send(#"{"type": "patch", "story": "\#(story)", "patch": [{"op": "replace", "path": "/email", "value": "three@example.com"}]}"#, from: bob)
        sink.clear()
        send(#"{"type": "undo", "story": "\#(story)", "base": 2, "ref": "u"}"#, from: alice)
        #expect(last(alice)?["code"] == "conflict")
        #expect(last(alice)?["ref"] == "u")
        send(#"{"type": "undo", "story": "\#(story)", "base": 3, "ref": "u2"}"#, from: alice)
        #expect(last(alice)?["type"] == "state")
        #expect(last(alice)?["version"] == 4)
        #expect(last(alice)?["props"]?["name"] == "Two")
        // Redo likewise: there is something to redo, but not at version 3 any more.
        send(#"{"type": "redo", "story": "\#(story)", "base": 3, "ref": "r"}"#, from: alice)
        #expect(last(alice)?["code"] == "conflict")
        send(#"{"type": "redo", "story": "\#(story)", "base": 4, "ref": "r2"}"#, from: alice)
        #expect(last(alice)?["version"] == 5)
        #expect(last(alice)?["props"]?["email"] == "three@example.com")
        // Seek likewise.
        send(#"{"type": "seek", "story": "\#(story)", "version": 1, "base": 4, "ref": "s"}"#, from: alice)
        #expect(last(alice)?["code"] == "conflict")
        send(#"{"type": "seek", "story": "\#(story)", "version": 1, "base": 5, "ref": "s2"}"#, from: alice)
        #expect(last(alice)?["version"] == 6)
        #expect(last(alice)?["props"]?["name"] == "Ada Lovelace")
    }

    @Test func dispatchLogsAnActionThenAppliesTheSuggestion() {
        send(#"{"type": "subscribe", "story": "auth-login--filled"}"#, from: alice)
        send(#"{"type": "subscribe", "story": "auth-login--filled"}"#, from: bob)
        send(#"{"type": "dispatch", "story": "auth-login--filled", "command": "login", "ref": "d1"}"#, from: alice)
        for connection in [alice, bob] {
            let messages = sink.received(by: connection).suffix(2)
            #expect(messages.first?["type"] == "action")
            #expect(messages.first?["command"] == "login")
            #expect(messages.last?["type"] == "state")
            #expect(messages.last?["props"] == ["loading": ["cancel": "cancel"]])
            #expect(messages.last?["cause"]?["kind"] == "dispatch")
        }
        send(#"{"type": "dispatch", "story": "auth-login--filled", "command": "nothing-happens"}"#, from: alice)
        #expect(last(alice)?["type"] == "action")
    }

    @Test func historyAnswersWithEntries() {
        send(#"{"type": "reset", "story": "profile-user-profile--default"}"#, from: alice)
        send(#"{"type": "history", "story": "profile-user-profile--default", "ref": "h"}"#, from: alice)
        let history = last(alice)
        #expect(history?["type"] == "history")
        #expect(history?["ref"] == "h")
        #expect(history?["entries"]?.arrayValue?.compactMap { $0["kind"]?.stringValue } == ["registered", "reset"])
    }

    @Test func closedConnectionsGetNothingMore() {
        send(#"{"type": "subscribe", "story": "profile-user-profile--default"}"#, from: alice)
        handler.closed(alice)
        sink.clear()
        send(#"{"type": "reset", "story": "profile-user-profile--default"}"#, from: bob)
        #expect(sink.received(by: alice).isEmpty)
    }

    @Test func statesAreSentWithAStoryCoalescingKeyAndOtherMessagesWithout() {
        // The transport replaces a queued older state with a newer one under the same key, so a
        // slow subscriber holds one pending state per story; errors and actions are never replaced.
        handler.opened(alice)
        send(#"{"type": "subscribe", "story": "auth-login--filled"}"#, from: alice)
        send(#"{"type": "dispatch", "story": "auth-login--filled", "command": "login"}"#, from: alice)
        send(#"{"type": "unsubscribe", "story": "nope--nope"}"#, from: alice)
        #expect(sink.types(for: alice) == ["hello", "state", "presence", "action", "state", "error"])
        #expect(sink.coalescingKeys(for: alice) == [nil, "state:auth-login--filled", "presence:auth-login--filled", nil, "state:auth-login--filled", nil])
    }
}
