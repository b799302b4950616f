import DemoCatalog
import Foundation
import Logging
import PropsCatalog
@testable import StorybookServer
import StorybookReview
import StorybookTransport
import Testing

/// `/mcp` through the router, without sockets: the session rules of Streamable HTTP, the tools on
/// the same edit path as HTTP, the resources, and the access rules.
@Suite struct MCPEndpointTests {
    let sink = RecordingSink()
    let hub: StoryHub
    let router: HTTPRouter
    let story = "profile-user-profile--default"
    static let headers = ["content-type": "application/json", "accept": "application/json, text/event-stream", "host": "127.0.0.1:6006"]

    init() throws {
        let catalog = try DemoCatalog.make()
        hub = StoryHub(catalog: catalog, sink: sink, logger: Logger(label: "test"))
        let renders = RenderCache(catalog: catalog)
        let presence = PresenceBoard.sendingAtOnce(hub: hub)
        let mcp = MCPEndpoint(tools: MCPTools(hub: hub, renders: renders, presence: presence, snapshotsDirectory: nil),
                              resources: MCPResources(hub: hub, presence: presence), presence: presence, maxJSONDepth: 64)
        router = HTTPRouter(hub: hub, replays: ReplayController(hub: hub) { _, work in work() }, renders: renders, staticFiles: nil,
                            access: AccessPolicy(token: nil, allowedOrigins: [], port: ListeningPort(6006)), maxJSONDepth: 64, mcp: mcp)
    }

    private func post(_ body: String, session: String? = nil, headers extra: [String: String] = [:]) -> HTTPResponse {
        var headers = Self.headers.merging(extra) { _, new in new }
        if let session { headers["mcp-session-id"] = session }
        return router.route(HTTPRequest(method: .post, path: "/mcp", headers: headers, body: Array(body.utf8)))
    }

    private func json(_ response: HTTPResponse) -> JSONValue? {
        try? JSONParser.parse(response.body)
    }

    private func initialize(_ name: String = "test-agent") throws -> String {
        let response = post(#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "\#(name)"}}}"#)
        #expect(response.status == 200)
        #expect(json(response)?["result"]?["protocolVersion"] == "2025-06-18")
        return try #require(response.headers.first { $0.0 == "Mcp-Session-Id" }?.1)
    }

    /// The 1-based line of the first line containing `text` in a file of this repository.
    private static func line(of text: String, inFile path: String) -> Int? {
        let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        guard let source = try? String(contentsOf: root.appendingPathComponent(path), encoding: .utf8) else { return nil }
        return source.split(separator: "\n", omittingEmptySubsequences: false).firstIndex { $0.contains(text) }.map { $0 + 1 }
    }

    private func call(_ tool: String, _ arguments: String, session: String) -> JSONValue? {
        json(post(#"{"jsonrpc": "2.0", "id": 9, "method": "tools/call", "params": {"name": "\#(tool)", "arguments": \#(arguments)}}"#, session: session))?["result"]
    }

    @Test func initializeHandsOutASessionThatLaterRequestsNeed() throws {
        let session = try initialize()
        let ping = #"{"jsonrpc": "2.0", "id": 2, "method": "ping"}"#
        #expect(post(ping).status == 400)
        #expect(post(ping, session: "unknown").status == 404)
        #expect(json(post(ping, session: session))?["result"] == [:])
        #expect(post(ping, session: session, headers: ["mcp-protocol-version": "1999-01-01"]).status == 400)
        #expect(post(#"{"jsonrpc": "2.0", "method": "notifications/initialized"}"#, session: session).status == 202)
        #expect(json(post(#"{"jsonrpc": "2.0", "id": 3, "method": "nope"}"#, session: session))?["error"]?["code"] == -32601)
        #expect(json(post("[]", session: session))?["error"]?["code"] == -32600)
        #expect(json(post("{", session: session))?["error"]?["code"] == -32700)
        let unknownVersion = post(#"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {"protocolVersion": "2099-01-01"}}"#)
        #expect(json(unknownVersion)?["result"]?["protocolVersion"] == "2025-06-18")
    }

    @Test func messagesThatAreNoJSONRPCEnvelopeAre400AndOpenNoSession() throws {
        let session = try initialize()
        for body in [
            #"{"jsonrpc": "2.0"}"#,                                                  // neither request nor response
            #"{"jsonrpc": "2.0", "id": {"a": 1}, "method": "initialize"}"#,          // an id is a string, number or null
            #"{"jsonrpc": "2.0", "id": true, "method": "ping"}"#,
            #"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": [1]}"#,  // params are an object
            #"{"jsonrpc": "2.0", "method": "notifications/initialized", "params": 5}"#,
            #"{"jsonrpc": "2.0", "id": 1, "method": 7}"#,
            #"{"jsonrpc": "2.0", "id": 1, "result": {}, "error": {"code": 1, "message": "x"}}"#,  // both
            #"{"jsonrpc": "2.0", "id": 1, "error": [null]}"#,                        // an error is an object
            #"{"jsonrpc": "2.0", "result": {}}"#,                                    // a response has an id
        ] {
            let response = post(body, session: session)
            #expect(response.status == 400, "\(body)")
            #expect(json(response)?["error"]?["code"] == -32600, "\(body)")
            #expect(!response.headers.contains { $0.0 == "Mcp-Session-Id" }, "\(body)")
        }
        #expect(post(#"{"jsonrpc": "2.0", "id": 4, "result": {}}"#, session: session).status == 202)
        #expect(post(#"{"jsonrpc": "2.0", "id": "a", "error": {"code": -1, "message": "no"}}"#, session: session).status == 202)
        #expect(json(post(#"{"jsonrpc": "2.0", "id": 2.5, "method": "ping"}"#, session: session))?["result"] == [:])
    }

    @Test func toolsEditThroughTheHubWithTheAgentAsAuthor() throws {
        let session = try initialize("claude-code")
        let tools = json(post(#"{"jsonrpc": "2.0", "id": 2, "method": "tools/list"}"#, session: session))?["result"]?["tools"]?.arrayValue ?? []
        let names = tools.compactMap { $0["name"]?.stringValue }
        #expect(names.contains("edit_story"))
        #expect(tools.allSatisfy { $0["inputSchema"]?["type"] == "object" && ($0["description"]?.stringValue?.count ?? 0) > 40 })
        #expect(!tools.contains { $0["name"] == "compare_goldens" }, "listed only with --snapshots")

        let edited = call("edit_story", #"{"story": "\#(story)", "patch": [{"op": "replace", "path": "/name", "value": "Grace"}]}"#, session: session)
        #expect(edited?["isError"] == false)
        #expect(edited?["structuredContent"]?["version"] == 2)
        let entry = try hub.session(story).get().history.entries.last
        #expect(entry?.source.description == "mcp:claude-code")
        #expect(entry?.source.author == ChangeAuthor(name: "claude-code", kind: .agent))

        let refused = call("edit_story", #"{"story": "\#(story)", "props": {"name": 1, "email": "e", "avatarURL": null}}"#, session: session)
        #expect(refused?["isError"] == true)
        #expect(refused?["structuredContent"]?["error"] == ["code": "invalid-props", "path": "/name", "message": "expected a string, found a number"])
        let conflict = call("edit_story", #"{"story": "\#(story)", "base": 1, "patch": []}"#, session: session)
        #expect(conflict?["structuredContent"]?["error"]?["code"] == "conflict")
        let notAnArray = call("edit_story", #"{"story": "\#(story)", "patch": {"op": "remove", "path": "/name"}}"#, session: session)
        #expect(notAnArray?["structuredContent"]?["error"]?["code"] == "bad-message")
        #expect(notAnArray?["structuredContent"]?["error"]?["path"] == "/patch")
        let negativeBase = call("edit_story", #"{"story": "\#(story)", "base": -1, "patch": []}"#, session: session)
        #expect(negativeBase?["structuredContent"]?["error"]?["path"] == "/base")
        #expect(try hub.session(story).get().version == 2, "refused edits change nothing")

        let undone = call("undo", #"{"story": "\#(story)"}"#, session: session)
        #expect(undone?["structuredContent"]?["props"]?["name"] == "Ada Lovelace")
        let history = call("read_history", #"{"story": "\#(story)"}"#, session: session)
        #expect(history?["structuredContent"]?["entries"]?.arrayValue?.count == 3)
    }

    @Test func validateRenderAndListChangeNothing() throws {
        let session = try initialize()
        let invalid = call("validate_props", #"{"component": "profile-user-profile", "props": {"name": "A", "email": 5, "avatarURL": null}}"#, session: session)
        #expect(invalid?["isError"] == false)
        #expect(invalid?["structuredContent"]?["valid"] == false)
        #expect(invalid?["structuredContent"]?["errors"]?.arrayValue?.first?["path"] == "/email")
        let valid = call("validate_props", #"{"story": "\#(story)", "props": {"name": "A", "email": "e", "avatarURL": null}}"#, session: session)
        #expect(valid?["structuredContent"]?["valid"] == true)
        let text = call("render_story", #"{"story": "\#(story)"}"#, session: session)?["content"]?.arrayValue?.first?["text"]?.stringValue
        #expect(text?.contains(#"heading2 "Ada Lovelace""#) == true)
        let other = call("render_story", #"{"story": "\#(story)", "props": {"name": "Zed", "email": "e", "avatarURL": null}}"#, session: session)
        #expect(other?["content"]?.arrayValue?.first?["text"]?.stringValue?.contains("Zed") == true)
        let html = call("render_story", #"{"story": "\#(story)", "format": "html", "source": "registered"}"#, session: session)
        #expect(html?["content"]?.arrayValue?.first?["text"]?.stringValue?.hasPrefix("<!doctype html>") == true)
        let bad = call("render_story", #"{"story": "\#(story)", "format": "png"}"#, session: session)
        #expect(bad?["structuredContent"]?["error"]?["path"] == "/format")
        // The accessibility outline, in an environment, as the render routes give it.
        let outline = call("render_story", #"{"story": "\#(story)", "format": "a11y"}"#, session: session)?["content"]?.arrayValue?.first?["text"]?.stringValue
        #expect(outline == (try hub.session(story).get().projections.accessibility))
        let login = "auth-login--filled"
        let german = call("render_story", #"{"story": "media-movie-detail--default", "format": "text", "environment": {"locale": "de-DE"}}"#, session: session)
        #expect(german?["content"]?.arrayValue?.first?["text"]?.stringValue?.contains("8,") == true)
        let loginOutline = call("render_story", #"{"story": "\#(login)", "format": "a11y", "source": "registered"}"#, session: session)
        #expect(loginOutline?["content"]?.arrayValue?.first?["text"]?.stringValue?.contains(#"heading level 1 "Sign in""#) == true)
        let badEnvironment = call("render_story", #"{"story": "\#(story)", "environment": {"colorScheme": "purple"}}"#, session: session)
        #expect(badEnvironment?["structuredContent"]?["error"]?["code"] == "bad-environment")
        let found = call("list_stories", #"{"query": "PROFILE"}"#, session: session)
        let profiles = hub.catalog.stories.filter { $0.id.contains("profile") }.count
        #expect(found?["structuredContent"]?["total"] == .integer(Int64(profiles)))
        #expect(found?["structuredContent"]?["stories"]?.arrayValue?.allSatisfy { $0["id"]?.stringValue?.contains("profile") == true } == true)
        let got = call("get_story", #"{"story": "\#(story)"}"#, session: session)
        #expect(got?["structuredContent"]?["fields"] == ["/name: string", "/email: string", "/avatarURL: string or null"])
        // Fields inside list items (`*`: any index), optionals and union cases' payloads have lines too.
        let clocks = call("get_story", #"{"story": "clocks-split-view--default"}"#, session: session)?["structuredContent"]?["fields"]
        #expect(clocks?.arrayValue?.contains("/timezones/*/uuid: string (uuid)") == true)
        #expect(clocks?.arrayValue?.contains("/search/text: string") == true)
        let picker = call("get_story", #"{"story": "maps-location-picker--default"}"#, session: session)?["structuredContent"]?["fields"]
        #expect(picker?.arrayValue?.contains("/status/failed/message: string") == true)
        #expect(picker?.arrayValue?.contains("/locations/*/coordinate/latitude: number") == true)
        // Where the component was registered: Profile.component in DemoCatalog/ProfileComponent.swift.
        let line = try #require(Self.line(of: "Component<UserProfile>(", inFile: "Sources/DemoCatalog/ProfileComponent.swift"))
        #expect(got?["structuredContent"]?["declaredAt"] == .string("DemoCatalog/ProfileComponent.swift:\(line)"))
        #expect(got?["structuredContent"]?["propsType"] == "UserProfile")
        #expect(got?["content"]?.arrayValue?.first?["text"]?.stringValue?.contains("(UserProfile, component registered at DemoCatalog/ProfileComponent.swift:\(line))") == true)
        #expect(try hub.session(story).get().version == 1)
        let unknownTool = json(post(#"{"jsonrpc": "2.0", "id": 4, "method": "tools/call", "params": {"name": "nope"}}"#, session: session))
        #expect(unknownTool?["error"]?["code"] == -32602)
    }

    @Test func resourcesAreTheLiveProjections() throws {
        let session = try initialize()
        let list = json(post(#"{"jsonrpc": "2.0", "id": 2, "method": "resources/list"}"#, session: session))?["result"]
        let uris = list?["resources"]?.arrayValue?.compactMap { $0["uri"]?.stringValue } ?? []
        #expect(uris.contains("storybook://story/\(story).txt"))
        let read = json(post(#"{"jsonrpc": "2.0", "id": 3, "method": "resources/read", "params": {"uri": "storybook://story/\#(story).json"}}"#, session: session))
        let contents = read?["result"]?["contents"]?.arrayValue?.first
        #expect(contents?["mimeType"] == "application/json")
        #expect(contents?["text"]?.stringValue.flatMap { try? JSONParser.parse($0) }?["version"] == 1)
        let missing = json(post(#"{"jsonrpc": "2.0", "id": 4, "method": "resources/read", "params": {"uri": "storybook://story/nope.txt"}}"#, session: session))
        #expect(missing?["error"]?["code"] == -32002)

        // The accessibility outline of the live state: the bytes of GET /render/{id}.a11y.txt?live=1.
        #expect(uris.contains("storybook://story/\(story).a11y.txt"))
        let templates = json(post(#"{"jsonrpc": "2.0", "id": 5, "method": "resources/templates/list"}"#, session: session))?["result"]?["resourceTemplates"]
        #expect(templates?.arrayValue?.contains { $0["uriTemplate"] == "storybook://story/{id}.a11y.txt" } == true)
        _ = try hub.apply(.patch(JSONPatch(json: [["op": "replace", "path": "/name", "value": "Grace Hopper"]])), to: story, source: .http).get()
        let outline = json(post(#"{"jsonrpc": "2.0", "id": 6, "method": "resources/read", "params": {"uri": "storybook://story/\#(story).a11y.txt"}}"#, session: session))?["result"]?["contents"]?.arrayValue?.first
        let live = router.route(HTTPRequest(method: .get, path: "/render/\(story).a11y.txt", queryItems: [QueryItem(name: "live", value: "1")], headers: Self.headers))
        #expect(live.status == 200)
        #expect(outline?["mimeType"] == "text/plain")
        #expect(outline?["text"]?.stringValue == String(decoding: live.body, as: UTF8.self))
        #expect(outline?["text"]?.stringValue?.contains(#"heading level 2 "Grace Hopper""#) == true)
        for wrong in ["storybook://story/.a11y.txt", "storybook://story/\(story).a11y", "storybook://story/\(story).png"] {
            let answer = json(post(#"{"jsonrpc": "2.0", "id": 7, "method": "resources/read", "params": {"uri": "\#(wrong)"}}"#, session: session))
            #expect(answer?["error"]?["code"] == -32002, "\(wrong)")
        }
    }

    @Test func accessRulesApplyToMCP() {
        let body = #"{"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": {}}"#
        #expect(post(body, headers: ["origin": "http://evil.example"]).status == 403)
        #expect(post(body, headers: ["origin": "null"]).status == 403)
        #expect(post(body, headers: ["origin": "http://127.0.0.1:6006"]).status == 200)
        #expect(post(body, headers: ["host": "evil.example"]).status == 421)
        #expect(post(body, headers: ["host": "evil.example:6006", "origin": "http://evil.example:6006"]).status == 421)
        #expect(post(body, headers: ["content-type": "text/plain"]).status == 415)
        #expect(post(body, headers: ["accept": "text/html"]).status == 406)
        let get = router.route(HTTPRequest(method: .get, path: "/mcp", headers: Self.headers))
        #expect(get.status == 405)
        #expect(get.headers.contains { $0 == ("Allow", "POST, DELETE") })
        let locked = HTTPRouter(hub: hub, replays: ReplayController(hub: hub) { _, work in work() }, renders: RenderCache(catalog: hub.catalog),
                                staticFiles: nil, access: AccessPolicy(token: "t", allowedOrigins: []), maxJSONDepth: 64, mcp: nil)
        #expect(locked.route(HTTPRequest(method: .post, path: "/mcp", headers: Self.headers, body: Array(body.utf8))).status == 401)
    }

    @Test func compareGoldensIsListedWithSnapshotsAndReportsEveryStory() throws {
        let directory = TemporaryDirectory(prefix: "mcp-goldens-")
        try FileManager.default.createDirectory(at: directory.url, withIntermediateDirectories: true)
        let presence = PresenceBoard.sendingAtOnce(hub: hub)
        let tools = MCPTools(hub: hub, renders: RenderCache(catalog: hub.catalog), presence: presence, snapshotsDirectory: directory.path)
        #expect(tools.definitions.contains { $0.name == "compare_goldens" })
        let client = MCPClient(sessionID: "s", name: "t", protocolVersion: "2025-06-18", lastUsed: 0)
        let report = try tools.call("compare_goldens", arguments: [:], client: client)
        #expect(report["isError"] == false)
        #expect(report["structuredContent"]?["counts"]?["new"] == .integer(Int64(hub.catalog.stories.count)))
        #expect(report["structuredContent"]?["stories"]?.arrayValue?.first?["status"] == "new")
    }
}
