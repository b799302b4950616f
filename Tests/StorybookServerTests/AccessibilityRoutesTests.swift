import DemoCatalog
import Foundation
import Logging
import PropsCatalog
@testable import StorybookServer
@testable import StorybookReview
@testable import StorybookTransport
import Testing

/// The accessibility and environment parts of the HTTP routes and the WebSocket, without a socket.
@Suite struct AccessibilityRoutesTests {
    let sink = RecordingSink()
    let hub: StoryHub
    let router: HTTPRouter
    let handler: WebSocketHandler

    init() throws {
        let catalog = try DemoCatalog.make()
        hub = StoryHub(catalog: catalog, sink: sink, logger: Logger(label: "test"))
        let replays = ReplayController(hub: hub) { _, work in work() }
        router = HTTPRouter(hub: hub, replays: replays, renders: RenderCache(catalog: catalog), staticFiles: nil,
                            access: AccessPolicy(token: nil, allowedOrigins: []), maxJSONDepth: 64)
        handler = WebSocketHandler(hub: hub, replays: replays, presence: PresenceBoard.sendingAtOnce(hub: hub),
                                   renderers: RendererRegistry(hub: hub, logger: Logger(label: "test")),
                                   maxJSONDepth: 64, maxMessageBytes: 1 << 20, logger: Logger(label: "test"))
    }

    private func get(_ path: String, _ query: [String: String] = [:], headers: [String: String] = [:]) -> HTTPResponse {
        router.route(HTTPRequest(method: .get, path: path, queryItems: query.sorted { $0.key < $1.key }.map { QueryItem(name: $0.key, value: $0.value) },
                                 headers: headers))
    }

    private func text(_ response: HTTPResponse) -> String { String(decoding: response.body, as: UTF8.self) }

    private func etag(_ response: HTTPResponse) -> String? { response.headers.first { $0.0 == "ETag" }?.1 }

    @Test func theOutlineRouteServesRegisteredAndLiveOutlines() {
        let registered = get("/render/auth-login--filled.a11y.txt")
        #expect(registered.status == 200)
        #expect(text(registered) == "heading level 1 \"Sign in\"\ntextbox \"Username\" value \"ada\"\ntextbox \"Password\" secure\nbutton \"Log in\"\n")
        #expect(etag(get("/render/auth-login--filled.a11y.txt", headers: ["if-none-match": etag(registered)!])) == etag(registered))
        _ = router.route(HTTPRequest(method: .patch, path: "/api/stories/auth-login--filled/props", headers: ["content-type": "application/json"],
                                     body: Array(#"[{"op": "replace", "path": "/input/_0/username/value", "value": "grace"}]"#.utf8)))
        #expect(text(get("/render/auth-login--filled.a11y.txt", ["live": "1"])).contains("textbox \"Username\" value \"grace\""))
    }

    @Test func theAuditListsFindingsWithTheirNodesAtTheComponentsLevel() throws {
        let response = get("/api/stories/settings-account-form--broken/audit")
        #expect(response.status == 200)
        let audit = try JSONParser.parse(response.body)
        #expect(audit["story"] == "settings-account-form--broken")
        #expect(audit["level"] == "todo")
        let findings = try #require(audit["findings"]?.arrayValue)
        #expect(findings.map { "\($0["rule"]!.stringValue!) \($0["node"]!.stringValue!) \($0["severity"]!.stringValue!)" } == [
            "image-alt /0/1 warning", "heading-order /0/2 warning", "control-name /0/3/1 warning", "control-name /0/3/2 warning",
        ])
        #expect(audit["elements"]?.arrayValue?.first == ["node": "/0/0", "line": "heading level 1 \"Account\""])
        #expect(audit["elements"]?.arrayValue?.count == 7)
        #expect(get("/api/stories/nope--nope/audit").status == 404)
        #expect(router.route(HTTPRequest(method: .post, path: "/api/stories/settings-account-form--broken/audit")).status == 405)
    }

    @Test func everyRouteTakesTheEnvironmentAndRefusesBadValues() throws {
        let standard = get("/render/media-movie-detail--default.txt")
        let large = get("/render/media-movie-detail--default.txt", ["dynamicType": "accessibility3"])
        #expect(text(standard) != text(large))
        #expect(text(get("/render/media-movie-list--default.txt", ["locale": "de-DE"])).contains("★ 8,1"))
        // Same bytes in two environments, two ETags; the live route and the state resource render in it too.
        let dark = get("/render/media-movie-detail--default.txt", ["colorScheme": "dark"])
        #expect(text(dark) == text(standard) && etag(dark) != etag(standard))
        #expect(text(get("/render/media-movie-detail--default.txt", ["live": "1", "locale": "de-DE"])).contains("★ 8,1"))
        #expect(text(get("/render/media-movie-detail--default.html", ["locale": "ar-EG"])).contains(#"<html lang="ar-EG" dir="rtl">"#))
        let state = try JSONParser.parse(get("/api/stories/media-movie-detail--default", ["locale": "de-DE"]).body)
        #expect(state["text"]?.stringValue?.contains("★ 8,1") == true)
        #expect(get("/api/stories/media-movie-detail--default/audit", ["dynamicType": "accessibility5"]).status == 200)
        let posted = router.route(HTTPRequest(method: .post, path: "/render/media-movie-list.txt", queryItems: [QueryItem(name: "locale", value: "de-DE")],
                                              headers: ["content-type": "application/json"], body: Array(#"{"movies": [{"id": "a", "title": "A", "year": 2000, "rating": 1234.56, "synopsis": "", "open": "open:a"}], "isLoading": false}"#.utf8)))
        #expect(text(posted).contains("★ 1.234,6"))
        for (path, query) in [("/render/media-movie-detail--default.txt", ["colorScheme": "purple"]),
                              ("/render/media-movie-detail--default.html", ["live": "1", "dynamicType": "huge"]),
                              ("/api/stories/media-movie-detail--default", ["locale": "x"]),
                              ("/api/stories/media-movie-detail--default/audit", ["width": "wide"])] {
            let response = get(path, query)
            #expect(response.status == 400, "\(path) \(query)")
            #expect(try JSONParser.parse(response.body)["error"]?["code"] == "bad-environment")
        }
        #expect(text(get("/render/media-movie-detail--default.txt", ["colorScheme": "purple"])).contains("allowed: light, dark"))
    }

    @Test func aSubscriptionsStatesAreRenderedInItsEnvironment() {
        let german = ConnectionID(raw: 1)
        let plain = ConnectionID(raw: 2)
        handler.received(Array(#"{"type": "subscribe", "story": "media-movie-detail--default", "environment": {"locale": "de-DE", "width": 320}}"#.utf8), from: german)
        handler.received(Array(#"{"type": "subscribe", "story": "media-movie-detail--default"}"#.utf8), from: plain)
        handler.received(Array(#"{"type": "dispatch", "story": "media-movie-detail--default", "command": "favorite.toggle"}"#.utf8), from: plain)
        let germanStates = sink.received(by: german).filter { $0["type"] == "state" }
        let plainStates = sink.received(by: plain).filter { $0["type"] == "state" }
        #expect(germanStates.count == 2 && plainStates.count == 2)
        #expect(germanStates.allSatisfy { $0["text"]?.stringValue?.contains("★ 8,1") == true })
        #expect(plainStates.allSatisfy { $0["text"]?.stringValue?.contains("★ 8.1") == true })
        #expect(germanStates.last?["text"]?.stringValue?.contains("toggle \"Favorite\" on") == true)

        handler.received(Array(#"{"type": "subscribe", "story": "media-movie-detail--default", "environment": {"colorScheme": "purple"}, "ref": "r"}"#.utf8), from: plain)
        let error = sink.received(by: plain).last
        #expect(error?["type"] == "error" && error?["code"] == "bad-environment" && error?["path"] == "/environment/colorScheme")
        handler.received(Array(#"{"type": "subscribe", "story": "media-movie-detail--default", "environment": {"font": "big"}}"#.utf8), from: plain)
        #expect(sink.received(by: plain).last?["code"] == "bad-environment")
    }

    @Test func checkFailsOnErrorLevelFindingsAndListsTodo() throws {
        let broken = Component<[String]>("Demo/Broken") { names in
            VStack { ForEach(names) { Button(icon: "trash", command: Command("delete:\($0)")) } }
        }.variant("Two", ["a", "b"])
        let directory = TemporaryDirectory(prefix: "a11y-")
        for (level, passes) in [(AuditLevel.error, false), (.todo, true), (.off, true)] {
            let catalog = try Catalog { broken.accessibilityAudit(level) }
            let report = try SnapshotCheck(catalog: catalog, options: .init(record: true)).run(directory: directory.path)
            #expect(report.passed == passes, "\(level)")
            let lines = report.text.split(separator: "\n").filter { $0.hasPrefix("a11y ") }
            #expect(lines.count == (level == .off ? 0 : 2))
            if level == .error {
                #expect(lines.first == "a11y error: demo-broken--two /0/0 control-name: button has no accessible name: give it a label or .accessibilityLabel(_:)")
                let junit = JUnitReport.xml(report)
                #expect(junit.contains(#"<testcase classname="demo-broken" name="demo-broken--two accessibility">"#))
                #expect(junit.contains(#"<failure type="accessibility" message="2 accessibility errors in demo-broken--two">"#))
                #expect(junit.contains(#"failures="1""#))
            }
            if level == .todo { #expect(lines.first?.hasPrefix("a11y todo: demo-broken--two /0/0 control-name") == true) }
        }
    }

    @Test func environmentsWriteGoldensOnlyWhereTheStoryRendersDifferently() throws {
        let catalog = try DemoCatalog.make()
        let detail = try StorySnapshot(try #require(catalog.story(id: "media-movie-detail--default")), environments: catalog.environments)
        #expect(detail.files.map(\.name) == [
            "media-movie-detail--default.txt", "media-movie-detail--default.a11y.txt", "media-movie-detail--default.json", "media-movie-detail--default.html",
            "media-movie-detail--default@accessibility3.txt", "media-movie-detail--default@accessibility3.a11y.txt", "media-movie-detail--default@accessibility3.html",
            "media-movie-detail--default@de-DE.txt", "media-movie-detail--default@de-DE.a11y.txt", "media-movie-detail--default@de-DE.html",
            "media-movie-detail--default@rtl.txt", "media-movie-detail--default@rtl.a11y.txt", "media-movie-detail--default@rtl.html",
        ])
        let login = try StorySnapshot(try #require(catalog.story(id: "auth-login--filled")), environments: catalog.environments)
        #expect(login.files.count == 4)  // dark, larger text, German and RTL render the same view
        #expect(StorySnapshot.owner(ofFileNamed: "a--b@de-DE.a11y.txt")! == ("a--b", "de-DE"))
        #expect(StorySnapshot.owner(ofFileNamed: "a--b.a11y.txt")! == ("a--b", ""))
        #expect(StorySnapshot.owner(ofFileNamed: "a--b@dark.json") == nil)

        // A golden of an environment that now renders as the default is stale: reported, pruned.
        let directory = TemporaryDirectory(prefix: "env-")
        _ = try SnapshotCheck(catalog: catalog, options: .init(record: true)).run(directory: directory.path)
        try "x\n".write(toFile: directory.path + "/auth-login--filled@dark.txt", atomically: false, encoding: .utf8)
        let stale = try SnapshotCheck(catalog: catalog).run(directory: directory.path)
        #expect(!stale.passed && stale.count(.removed) == 1)
        #expect(stale.text.contains("removed: auth-login--filled@dark: renders as in the default environment now"))
        let pruned = try SnapshotCheck(catalog: catalog, options: .init(prune: true)).run(directory: directory.path)
        #expect(pruned.passed && !FileManager.default.fileExists(atPath: directory.path + "/auth-login--filled@dark.txt"))
    }
}
