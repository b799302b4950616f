import DemoCatalog
import Logging
import PropsCatalog
@testable import StorybookServer
import Testing
@testable import StorybookTransport

/// The renderer protocol over the hub, without a socket.
@Suite struct RendererRegistryTests {
    let sink = RecordingSink()
    let handler: WebSocketHandler
    let registry: RendererRegistry
    let browser = ConnectionID(raw: 1)
    let phone = ConnectionID(raw: 2)

    init() throws {
        let hub = StoryHub(catalog: try DemoCatalog.make(), sink: sink, logger: Logger(label: "test"))
        registry = RendererRegistry(hub: hub, logger: Logger(label: "test"))
        handler = WebSocketHandler(hub: hub, replays: ReplayController(hub: hub) { _, work in work() },
                                   presence: PresenceBoard.sendingAtOnce(hub: hub), renderers: registry, maxJSONDepth: 16, maxMessageBytes: 1 << 20, logger: Logger(label: "test"))
    }

    private func send(_ text: String, from connection: ConnectionID) {
        handler.received(Array(text.utf8), from: connection)
    }

    private func types(_ connection: ConnectionID) -> [String] {
        sink.received(by: connection).compactMap { $0["type"]?.stringValue }
    }

    @Test func announceShowReportAndDisconnect() {
        send(#"{"type": "renderers"}"#, from: browser)
        send(#"{"type": "renderer", "name": "phone", "platform": "iOS 26", "components": ["profile-user-profile"]}"#, from: phone)
        #expect(types(phone) == ["renderer-accepted"])
        #expect(sink.received(by: browser).last?["renderers"]?.arrayValue?.first?["name"] == "phone")

        send(#"{"type": "subscribe", "story": "profile-user-profile--default"}"#, from: browser)
        send(#"{"type": "show", "renderer": "phone", "story": "profile-user-profile--default"}"#, from: browser)
        #expect(types(phone) == ["renderer-accepted", "show", "state"])
        send(#"{"type": "rendered", "story": "profile-user-profile--default", "version": 1, "text": "ok"}"#, from: phone)
        #expect(sink.received(by: browser).last?["type"] == "rendered")
        #expect(sink.received(by: browser).last?["text"] == "ok")
        #expect(registry.renderer(named: "phone")?.lastReport?.version == 1)

        handler.closed(phone)
        #expect(registry.all.isEmpty)
        #expect(sink.received(by: browser).last { $0["type"] == "renderers" }?["renderers"] == .array([]))
    }

    @Test func reportsGoForwardAndOnlyFromRenderers() {
        send(#"{"type": "rendered", "story": "profile-user-profile--default", "version": 1, "text": "x"}"#, from: browser)
        #expect(sink.received(by: browser).last?["code"] == "bad-message")
        send(#"{"type": "renderer", "name": "phone", "platform": "iOS", "components": ["profile-user-profile"]}"#, from: phone)
        send(#"{"type": "patch", "story": "profile-user-profile--default", "patch": [{"op": "replace", "path": "/name", "value": "G"}]}"#, from: browser)
        send(#"{"type": "rendered", "story": "profile-user-profile--default", "version": 2, "text": "new"}"#, from: phone)
        send(#"{"type": "rendered", "story": "profile-user-profile--default", "version": 1, "text": "old"}"#, from: phone)
        #expect(sink.received(by: phone).last?["code"] == "conflict")
        #expect(registry.renderer(named: "phone")?.reports["profile-user-profile--default"]?.content.text == "new")
    }

    @Test func parsesTheRendererMessages() throws {
        let reader = FieldReader(fields: ["name": "a", "platform": "b", "components": ["x", "x", "y"]])
        #expect(try RendererMessage.parse(type: "renderer", reader) == .announce(name: "a", platform: "b", components: ["x", "y"]))
        #expect(try RendererMessage.parse(type: "subscribe", reader) == nil)
        #expect(throws: APIError.self) {
            try RendererMessage.parse(type: "renderer", FieldReader(fields: ["name": "a\nb", "platform": "b", "components": []]))
        }
    }
}
