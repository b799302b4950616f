import DemoCatalog
import Logging
import PropsCatalog
@testable import StorybookServer
import Testing
@testable import StorybookTransport

/// Strict HTTP and WebSocket rules that need no socket: 405 on every route, query domains, frame
/// lengths and close codes.
@Suite struct StrictProtocolTests {
    let router: HTTPRouter

    init() throws {
        let catalog = try DemoCatalog.make()
        let hub = StoryHub(catalog: catalog, sink: RecordingSink(), logger: Logger(label: "test"))
        router = HTTPRouter(hub: hub, replays: ReplayController(hub: hub) { _, work in work() }, renders: RenderCache(catalog: catalog),
                            staticFiles: nil, access: AccessPolicy(token: nil, allowedOrigins: []), maxJSONDepth: 64)
    }

    @Test(arguments: [
        (HTTPMethod.put, "/healthz"), (.post, "/api/index.json"), (.delete, "/api/stories/profile-user-profile--default"),
        (.get, "/api/stories/profile-user-profile--default/undo"), (.put, "/api/stories/profile-user-profile--default/history"),
        (.patch, "/api/stories/profile-user-profile--default/replay/stop"), (.post, "/api/components/profile-user-profile/schema"),
        (.delete, "/render/profile-user-profile--default.txt"), (.options, "/api/projections"),
    ])
    func everyRouteAnswers405ForTheMethodsItLacks(method: HTTPMethod, path: String) throws {
        let response = router.route(HTTPRequest(method: method, path: path))
        #expect(response.status == 405)
        #expect(response.headers.contains { $0.0 == "Allow" })
        #expect(try JSONParser.parse(response.body)["error"]?["code"] == "method-not-allowed")
    }

    @Test(arguments: ["since=abc", "since=-1", "since=", "since=1e3", "since=٣"])
    func historySinceMustBeAVersionNumber(query: String) {
        let item = QueryItem(fragment: query)
        let response = router.route(HTTPRequest(method: .get, path: "/api/stories/profile-user-profile--default/history", queryItems: [item]))
        #expect(response.status == 400)
    }

    @Test func liveMustBeABoolean() {
        let path = "/render/profile-user-profile--default.txt"
        #expect(router.route(HTTPRequest(method: .get, path: path, queryItems: [QueryItem(name: "live", value: "AAA")])).status == 400)
        #expect(router.route(HTTPRequest(method: .get, path: path, queryItems: [QueryItem(name: "live", value: "1")])).status == 200)
    }

    @Test func aFrameDeclaringMoreThanTheLimitIsRefusedByItsHeader() {
        // A text frame's header alone (FIN, 64-bit length, mask key): no payload byte is needed to refuse it.
        func verdict(declaring length: UInt64) -> [WebSocketReader.Event] {
            var reader = WebSocketReader(limit: 1000)
            let header: [UInt8] = [0x81, 0xFF] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: length >> UInt64($0 * 8)) } + [1, 2, 3, 4]
            var events: [WebSocketReader.Event] = []
            header.withUnsafeBytes { reader.read($0) { events.append($0) } }
            return events
        }
        #expect(verdict(declaring: 1 << 62) == [.fail(.messageTooBig)])
        #expect(verdict(declaring: 1001) == [.fail(.messageTooBig)])
        #expect(verdict(declaring: 1000).isEmpty)
    }

    @Test func closeCodesAPeerMaySend() {
        for code in [1000, 1001, 1003, 1007, 1011, 3000, 4999] { #expect(CloseFrame.isValidReceivedCode(code)) }
        for code in [0, 999, 1004, 1005, 1006, 1015, 1016, 2999, 5000, 65535] { #expect(!CloseFrame.isValidReceivedCode(code)) }
    }

    @Test func nullIsNotAnInteger() {
        let reader = FieldReader(fields: ["base": .null])
        #expect(throws: APIError.self) { try reader.optionalInt("base") }
    }

    @Test func aMalformedPatchNeverReportsANonPointerPath() throws {
        let patch: JSONValue = [["op": "add", "path": "AAA", "value": 1]]
        let error = try #require(throws: JSONPatchError.self) { try JSONPatch(json: patch) }
        #expect(error.path == nil)
    }
}
