import DemoCatalog
import Logging
import PropsCatalog
@testable import StorybookServer
import Testing
@testable import StorybookTransport

/// The access rules every way in goes through: Host allow-list, Origin, media type and token.
@Suite struct AccessPolicyTests {
    static let story = "profile-user-profile--default"
    let policy = AccessPolicy(token: nil, allowedOrigins: ["http://localhost:3000"], allowedHosts: ["storybook.test"],
                              listeningHost: "127.0.0.1", port: ListeningPort(6006))

    private func request(_ method: HTTPMethod, _ path: String = "/api/stories/\(story)/reset", headers: [String: String] = [:],
                         body: String = "") -> HTTPRequest {
        HTTPRequest(method: method, path: path, headers: headers, body: Array(body.utf8))
    }

    @Test(arguments: ["127.0.0.1:6006", "localhost", "LOCALHOST:6006", "[::1]:6006", "storybook.test", "localhost.", "127.0.0.1"])
    func hostsThisServerAnswersTo(host: String) {
        #expect(policy.refusal(request(.post, headers: ["host": host])) == nil)
    }

    @Test(arguments: ["evil.example:6006", "evil.example", "127.0.0.2", "[::2]:6006", "localhost:abc", "localhost:6006,evil", "a@localhost",
                      "localhost.evil.example", ""])
    func foreignHostsAreMisdirected(host: String) {
        let refusal = policy.refusal(request(.get, "/healthz", headers: ["host": host]))
        #expect(refusal?.code == .misdirected)
        #expect(refusal?.httpStatus == 421)
    }

    /// 3,000 strings of up to `maxLength` characters drawn from `alphabet`.
    private static func randomHosts(from alphabet: String, maxLength: Int) -> [String] {
        var generator = SystemRandomNumberGenerator()
        let characters = Array(alphabet)
        return (0..<3000).map { _ in
            String((0..<Int.random(in: 0...maxLength, using: &generator)).map { _ in characters.randomElement(using: &generator)! })
        }
    }

    /// `plainAuthority` reads the common `Host` from its bytes; wherever it gives an answer, it is the one
    /// the general reader gives, and it gives one for what clients send.
    @Test func thePlainAuthorityReaderAgreesWithTheGeneralOne() {
        var crafted = ["localhost", "localhost:6006", "127.0.0.1:6006", "storybook.test", "a-b.c:0", "x:65535", "x:65536",
                       "x:00080", "x:123456", "x:", ":80", "x:+80", "x:-0", "x:8a", "localhost.", "localhost.:80", ".", "-:1",
                       "LOCALHOST", "[::1]:6006", "a@b", "a b", "a,b", "a/b", "é.test", "x:80:80", ""]
        let local = AccessPolicy.plainAuthority("localhost:6006")
        #expect(local?.0 == "localhost" && local?.1 == 6006)
        let address = AccessPolicy.plainAuthority("127.0.0.1")
        #expect(address?.0 == "127.0.0.1" && address?.1 == nil)
        crafted += Self.randomHosts(from: "az09.-:[]@, A+/é", maxLength: 9)
        var readPlainly = 0
        for host in crafted {
            guard let plain = AccessPolicy.plainAuthority(host) else { continue }
            readPlainly += 1
            let general = AccessPolicy.generalAuthority(host)
            #expect(general?.0 == plain.0 && general?.1 == plain.1, "\(host)")
        }
        #expect(readPlainly > 50)  // about one random host in twenty is plain
    }

    /// The loop thread judges `Host` from its bytes (``AccessPolicy/isAllowedHost(bytes:)``): for every
    /// host, the answer is the general reader's, looked up in the allowed names.
    @Test func theByteRuleForHostIsTheGeneralRule() {
        var hosts = ["localhost", "localhost:6006", "LOCALHOST", "localhost.", "localhos", "localhostt", "127.0.0.1", "127.0.0.10",
                     "127.0.0.1:1", "[::1]", "[::1]:6006", "storybook.test", "storybook.test.:80", "storybook.tes", "", ":80", "x:65536"]
        hosts += Self.randomHosts(from: "lochst.:0127[]A-", maxLength: 11)
        var allowed = 0
        for host in hosts {
            let general = AccessPolicy.generalAuthority(host).map { policy.allowedHosts.contains($0.0) } ?? false
            var bytes = host
            #expect(bytes.withUTF8 { policy.isAllowedHost(bytes: $0) } == general, "\(host)")
            #expect(policy.isAllowedHost(host) == general, "\(host)")
            if general { allowed += 1 }
        }
        #expect(allowed >= 10)  // the crafted names that are allowed, at least
    }

    @Test func aListeningAddressIsAnAllowedHost() {
        let wide = AccessPolicy(token: "t", allowedOrigins: [], listeningHost: "192.168.1.20", port: ListeningPort(80))
        #expect(wide.isAllowedHost("192.168.1.20:80"))
        let v6 = AccessPolicy(token: "t", allowedOrigins: [], listeningHost: "::1")
        #expect(v6.isAllowedHost("[::1]:1"))
        #expect(!v6.isAllowedHost("::1"))
    }

    @Test(arguments: ["http://evil.example", "null", "http://localhost:6007", "http://localhost", "https://127.0.0.1:6006x",
                      "file://", "http://evil.example:6006", "ftp://localhost:6006", "http://localhost:3000/"])
    func foreignOriginsCannotChangeState(origin: String) {
        for method in [HTTPMethod.post, .put, .patch, .delete] {
            let refusal = policy.refusal(request(method, headers: ["origin": origin, "content-type": "application/json"], body: "{}"))
            #expect(refusal?.code == .forbidden, "\(method) \(origin)")
        }
        #expect(policy.refusal(UpgradeRequest(path: "/ws", headers: ["origin": origin]))?.code == .forbidden)
        // Reading is not changing: a GET with a foreign Origin goes on (the browser keeps the answer from the page).
        #expect(policy.refusal(request(.get, "/api/index.json", headers: ["origin": origin])) == nil)
    }

    @Test(arguments: ["http://localhost:6006", "http://127.0.0.1:6006", "http://[::1]:6006", "http://storybook.test:6006",
                      "http://localhost:3000", "HTTP://LOCALHOST:6006"])
    func ownAndAllowedOriginsMayChangeState(origin: String) {
        let refusal = policy.refusal(request(.post, headers: ["origin": origin]))
        if origin.hasPrefix("HTTP://") {
            #expect(refusal?.code == .forbidden)  // browsers send the scheme lowercased; anything else is not a browser's origin
        } else {
            #expect(refusal == nil)
            #expect(policy.refusal(UpgradeRequest(path: "/ws", headers: ["origin": origin])) == nil)
        }
    }

    @Test func anOriginIsComparedWithTheAllowedHostsNeverWithTheRequestsOwnHost() {
        let upgrade = UpgradeRequest(path: "/ws", headers: ["host": "evil.example:6006", "origin": "http://evil.example:6006"])
        #expect(policy.refusal(upgrade)?.code == .misdirected)
        let allowedHost = AccessPolicy(token: nil, allowedOrigins: [], allowedHosts: ["evil.example"], port: ListeningPort(6006))
        #expect(allowedHost.refusal(UpgradeRequest(path: "/ws", headers: ["host": "localhost:6006", "origin": "http://other.example:6006"]))?.code == .forbidden)
    }

    @Test func anOriginIsNeverOwnBeforeThePortIsKnown() {
        let unstarted = AccessPolicy(token: nil, allowedOrigins: [])
        #expect(unstarted.refusal(request(.post, headers: ["origin": "http://localhost:80"]))?.code == .forbidden)
    }

    @Test func starAllowsAnyOriginButNull() {
        let any = AccessPolicy(token: nil, allowedOrigins: ["*"], port: ListeningPort(6006))
        #expect(any.refusal(request(.post, headers: ["origin": "http://evil.example"])) == nil)
        #expect(any.refusal(request(.post, headers: ["origin": "null"]))?.code == .forbidden)
    }

    @Test(arguments: ["text/plain", "application/x-www-form-urlencoded", "multipart/form-data; boundary=x", "", "application/jsonp"])
    func bodiesMustBeJSON(contentType: String) {
        let refusal = policy.refusal(request(.post, "/api/stories/\(Self.story)/seek", headers: ["content-type": contentType], body: #"{"version": 1}"#))
        #expect(refusal?.code == .unsupportedMediaType)
        #expect(refusal?.httpStatus == 415)
        // Even without a body: a form post of nothing is still a form post.
        #expect(policy.refusal(request(.post, headers: ["content-type": contentType]))?.code == .unsupportedMediaType)
    }

    @Test func aBodyWithoutContentTypeIsRefusedAndJSONIsAccepted() {
        #expect(policy.refusal(request(.put, "/api/stories/\(Self.story)/props", body: "{}"))?.code == .unsupportedMediaType)
        for type in ["application/json", "application/json; charset=utf-8", "Application/JSON", "application/json-patch+json"] {
            #expect(policy.refusal(request(.put, "/api/stories/\(Self.story)/props", headers: ["content-type": type], body: "{}")) == nil)
        }
        #expect(policy.refusal(request(.post)) == nil)  // a bodiless POST from a script
    }

    @Test func theTokenGuardsTheAPIRenderWebSocketAndMCP() {
        let guarded = AccessPolicy(token: "s3cret", allowedOrigins: [])
        for path in ["/api/index.json", "/render/x.txt", "/ws", "/mcp"] {
            #expect(guarded.refusal(request(.get, path))?.code == .unauthorized, "\(path)")
            #expect(guarded.refusal(request(.get, path, headers: ["authorization": "Bearer s3cret"])) == nil)
        }
        #expect(guarded.refusal(request(.get, "/healthz")) == nil)
        #expect(guarded.refusal(UpgradeRequest(path: "/ws", queryItems: [QueryItem(name: "token", value: "s3cret")])) == nil)
        #expect(guarded.refusal(UpgradeRequest(path: "/ws", headers: ["cookie": "a=b; storybook-token=s3cret"])) == nil)
    }

    @Test func theRouterRefusesBeforeChangingAnything() throws {
        let catalog = try DemoCatalog.make()
        let hub = StoryHub(catalog: catalog, sink: RecordingSink(), logger: Logger(label: "test"))
        let router = HTTPRouter(hub: hub, replays: ReplayController(hub: hub) { _, work in work() }, renders: RenderCache(catalog: catalog),
                                staticFiles: nil, access: policy, maxJSONDepth: 64)
        let attempts = [
            request(.post, headers: ["host": "evil.example:6006"]),
            request(.post, headers: ["origin": "http://evil.example"]),
            request(.post, headers: ["origin": "null", "content-type": "multipart/form-data; boundary=x"]),
            request(.post, "/api/stories/\(Self.story)/seek", headers: ["content-type": "text/plain"], body: #"{"version": 1}"#),
            request(.patch, "/api/stories/\(Self.story)/props", headers: ["content-type": "text/plain"],
                    body: #"[{"op": "replace", "path": "/name", "value": "x"}]"#),
        ]
        for attempt in attempts {
            let response = router.route(attempt)
            #expect([403, 415, 421].contains(response.status))
            #expect(try JSONParser.parse(response.body)["error"]?["code"] != nil)
        }
        #expect(try hub.session(Self.story).get().version == 1)
        let immediate = ImmediateResponder(renders: RenderCache(catalog: catalog), liveStates: hub.liveStates, access: policy)
        #expect(immediate.response(to: RequestHead(request(.get, "/healthz", headers: ["host": "evil.example"]))) == nil)
        #expect(router.route(request(.get, "/healthz", headers: ["host": "evil.example"])).status == 421)
    }
}
