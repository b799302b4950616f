import DemoCatalog
import Logging
import PropsCatalog
@testable import StorybookReview
@testable import StorybookServer
import Testing
@testable import StorybookTransport

/// `subscribe` with `"delta": true`: later states carry a props patch and a splice of each projection,
/// which make exactly the whole state a subscriber without deltas gets.
@Suite struct StateDeltaTests {
    let sink = RecordingSink()
    let alice = ConnectionID(raw: 1)  // takes deltas
    let bob = ConnectionID(raw: 2)    // whole states

    private func handler(_ catalog: Catalog) -> WebSocketHandler {
        let hub = StoryHub(catalog: catalog, sink: sink, logger: Logger(label: "test"))
        return WebSocketHandler(hub: hub, replays: ReplayController(hub: hub) { _, work in work() },
                                presence: PresenceBoard.sendingAtOnce(hub: hub), renderers: RendererRegistry(hub: hub, logger: Logger(label: "test")),
                                maxJSONDepth: 16, maxMessageBytes: 1 << 20, logger: Logger(label: "test"))
    }

    private func states(_ connection: ConnectionID) -> [JSONValue] {
        sink.received(by: connection).filter { $0["type"] == "state" }
    }

    /// The whole state a delta makes of `previous`, as a client rebuilds it.
    private func applying(_ delta: JSONValue, to previous: JSONValue) throws -> JSONValue {
        let operations = try #require(delta["delta"]?["props"])
        let previousProps = try #require(previous["props"])
        var members = try #require(delta.objectValue)
        members["delta"] = nil
        members["base"] = nil
        members["props"] = try JSONPatch(json: operations).apply(to: previousProps)
        for name in ["text", "html"] {
            let splice = try #require(delta["delta"]?[name]?.objectValue)
            let at = try #require(splice["at"]?.integerValue)
            let remove = try #require(splice["remove"]?.integerValue)
            let insert = try #require(splice["insert"]?.stringValue)
            let old = try #require(previous[name]?.stringValue)
            members[name] = .string(try #require(TextSplice(offset: Int(at), removed: Int(remove), inserted: insert).applied(to: old)))
        }
        return .object(members)
    }

    @Test func deltasRebuildTheWholeStatesOthersGet() throws {
        let handler = handler(try DemoCatalog.make())
        let story = "profile-user-profile--default"
        handler.received(Array(#"{"type": "subscribe", "story": "\#(story)", "delta": true}"#.utf8), from: alice)
        handler.received(Array(#"{"type": "subscribe", "story": "\#(story)"}"#.utf8), from: bob)
        let edits = [
            #"{"type": "patch", "story": "\#(story)", "patch": [{"op": "replace", "path": "/name", "value": "Grace Hopper ★"}], "ref": "e1"}"#,
            #"{"type": "patch", "story": "\#(story)", "patch": [{"op": "replace", "path": "/email", "value": "grace@navy.mil"}], "ref": "e2"}"#,
            #"{"type": "undo", "story": "\#(story)", "ref": "e3"}"#,
            #"{"type": "reset", "story": "\#(story)", "ref": "e4"}"#,
            // Canonically equivalent to the next one but other bytes: the delta must carry it.
            #"{"type": "patch", "story": "\#(story)", "patch": [{"op": "replace", "path": "/name", "value": "Ada L\u00f6velace"}], "ref": "e5"}"#,
            #"{"type": "patch", "story": "\#(story)", "patch": [{"op": "replace", "path": "/name", "value": "Ada Lo\u0308velace"}], "ref": "e6"}"#,
        ]
        for edit in edits { handler.received(Array(edit.utf8), from: bob) }
        let deltas = states(alice)
        let whole = states(bob)
        #expect(deltas.count == 7 && whole.count == 7)
        #expect(deltas[0]["props"] != nil && deltas[0]["delta"] == nil)  // the first state is whole
        var rebuilt = deltas[0]
        for (delta, expected) in zip(deltas.dropFirst(), whole.dropFirst()) {
            #expect(delta["props"] == nil && delta["text"] == nil && delta["html"] == nil)
            #expect(delta["base"]?.integerValue == rebuilt["version"]?.integerValue)
            rebuilt = try applying(delta, to: rebuilt)
            #expect(rebuilt.isIdentical(to: expected), "\(rebuilt["props"] ?? nil) against \(expected["props"] ?? nil)")
        }
        #expect(deltas[1]["delta"]?["props"] == [["op": "replace", "path": "/name", "value": "Grace Hopper ★"]])
    }

    @Test func oneItemOfALongListSendsThatItem() throws {
        let handler = handler(try Catalog([SyntheticCatalog.longList(count: 500)]))
        let story = "synthetic-long-list--default"
        handler.received(Array(#"{"type": "subscribe", "story": "\#(story)", "delta": true}"#.utf8), from: alice)
        handler.received(Array(#"{"type": "subscribe", "story": "\#(story)"}"#.utf8), from: bob)
        handler.received(Array(#"{"type": "patch", "story": "\#(story)", "patch": [{"op": "replace", "path": "/items/250/title", "value": "Renamed"}]}"#.utf8), from: bob)
        let delta = try #require(states(alice).last)
        let whole = try #require(states(bob).last)
        let deltaBytes = delta.serializedBytes().count
        #expect(deltaBytes < 1_000, "the delta is \(deltaBytes) bytes")
        #expect(whole.serializedBytes().count > 100_000)
        #expect(delta["delta"]?["props"] == [["op": "replace", "path": "/items/250/title", "value": "Renamed"]])
        let first = try #require(states(alice).first)
        #expect(try applying(delta, to: first) == whole)
    }

    @Test func otherEnvironmentsGetWholeStatesThatSayTheirEnvironment() throws {
        let handler = handler(try DemoCatalog.make())
        let story = "profile-user-profile--default"
        handler.received(Array(#"{"type": "subscribe", "story": "\#(story)", "delta": true, "environment": {"locale": "de-DE"}}"#.utf8), from: alice)
        handler.received(Array(#"{"type": "reset", "story": "\#(story)"}"#.utf8), from: bob)
        let received = states(alice)
        #expect(received.count == 2)
        for state in received {
            #expect(state["props"] != nil && state["delta"] == nil)
            #expect(state["environment"] == ["locale": "de-DE"])
        }
        // Back in the default environment, deltas again.
        handler.received(Array(#"{"type": "subscribe", "story": "\#(story)", "delta": true}"#.utf8), from: alice)
        handler.received(Array(#"{"type": "reset", "story": "\#(story)"}"#.utf8), from: bob)
        #expect(states(alice).last?["delta"] != nil)
        #expect(states(alice).last?["environment"] == nil)
    }

    @Test func subscribingWithoutDeltasAgainEndsThem() throws {
        let handler = handler(try DemoCatalog.make())
        let story = "profile-user-profile--default"
        handler.received(Array(#"{"type": "subscribe", "story": "\#(story)", "delta": true}"#.utf8), from: alice)
        handler.received(Array(#"{"type": "subscribe", "story": "\#(story)"}"#.utf8), from: alice)
        handler.received(Array(#"{"type": "reset", "story": "\#(story)"}"#.utf8), from: bob)
        #expect(states(alice).last?["delta"] == nil)
        #expect(states(alice).last?["props"] != nil)
    }

    @Test func aDeltaThatIsNotABooleanIsRefused() throws {
        let handler = handler(try DemoCatalog.make())
        handler.received(Array(#"{"type": "subscribe", "story": "profile-user-profile--default", "delta": "yes"}"#.utf8), from: alice)
        let error = try #require(sink.received(by: alice).last)
        #expect(error["code"] == "bad-message")
        #expect(error["path"] == "/delta")
        #expect(states(alice).isEmpty)
    }
}
