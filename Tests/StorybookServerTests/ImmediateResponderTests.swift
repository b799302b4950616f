import DemoCatalog
import Logging
import PropsCatalog
import StorybookReview
@testable import StorybookServer
import Testing
@testable import StorybookTransport

/// Prepared heads and the loop thread's immediate answers, without a socket: they must be the very
/// answers the router gives on the app's queue.
@Suite struct ImmediateResponderTests {
    static let story = "profile-user-profile--default"
    let hub: StoryHub
    let renders: RenderCache

    init() throws {
        let catalog = try DemoCatalog.make()
        hub = StoryHub(catalog: catalog, sink: RecordingSink(), logger: Logger(label: "test"))
        renders = RenderCache(catalog: catalog)
    }

    private func router(token: String? = nil) -> HTTPRouter {
        HTTPRouter(hub: hub, replays: ReplayController(hub: hub) { _, work in work() }, renders: renders, staticFiles: nil,
                   access: AccessPolicy(token: token, allowedOrigins: []), maxJSONDepth: 64)
    }

    private func responder(token: String? = nil) -> ImmediateResponder {
        ImmediateResponder(renders: renders, liveStates: hub.liveStates, access: AccessPolicy(token: token, allowedOrigins: []))
    }

    /// The router's answer to `request` and the immediate one, prepared for the wire the same way.
    private func bothAnswers(_ request: HTTPRequest, token: String? = nil) -> (router: PreparedResponse, immediate: PreparedResponse?) {
        (PreparedResponse(router(token: token).route(request)), responder(token: token).response(to: RequestHead(request)))
    }

    @Test func aCachedAnswerIsThe304ForItsETagAndThe200Otherwise() {
        let answer = CachedAnswer(Array("abc".utf8), contentType: "text/plain; charset=utf-8", etag: "\"e1\"")
        for ifNoneMatch in ["\"e1\"", "W/\"e1\"", "*", "\"x\", \"e1\""] {
            let response = answer.response(ifNoneMatch: ifNoneMatch)
            #expect(response.status == 304)
            #expect(response.body.isEmpty)
            #expect(String(decoding: response.head.lines, as: UTF8.self) == "ETag: \"e1\"\r\nCache-Control: no-cache\r\n")
        }
        for ifNoneMatch in [nil, "\"e2\""] {
            let response = answer.response(ifNoneMatch: ifNoneMatch)
            #expect(response.status == 200)
            #expect(response.body == Array("abc".utf8))
            #expect(String(decoding: response.head.lines, as: UTF8.self)
                == "Content-Type: text/plain; charset=utf-8\r\nETag: \"e1\"\r\nCache-Control: no-cache\r\n")
        }
    }

    @Test(arguments: ["txt", "a11y.txt", "html"], [HTTPMethod.get, .head])
    func aRenderedProjectionIsTheRoutersAnswer(format: String, method: HTTPMethod) throws {
        let path = "/render/\(Self.story).\(format)"
        _ = renders.entry(Self.story)
        let (routed, immediate) = bothAnswers(HTTPRequest(method: method, path: path))
        #expect(immediate == routed)
        #expect(immediate?.status == 200)

        let etag = try #require(renders.cached(Self.story)?.etag(format == "txt" ? .text : (format == "html" ? .html : .a11y)))
        let (routed304, immediate304) = bothAnswers(HTTPRequest(method: method, path: path, headers: ["if-none-match": etag]))
        #expect(immediate304 == routed304)
        #expect(immediate304?.status == 304)
        #expect(immediate304?.body == [])
    }

    @Test func theLiveStateIsTheRoutersAnswer() {
        let request = HTTPRequest(method: .get, path: "/api/stories/\(Self.story)")
        #expect(responder().response(to: RequestHead(request)) == nil, "no session yet: the router creates it")
        let (routed, immediate) = bothAnswers(request)
        #expect(immediate == routed)
        #expect(immediate?.status == 200)
    }

    @Test func whatTheLoopThreadLeavesToTheRouter() {
        _ = renders.entry(Self.story)
        let declined = [
            HTTPRequest(method: .post, path: "/render/\(Self.story).txt"),
            HTTPRequest(method: .get, path: "/render/\(Self.story).txt", queryItems: [QueryItem(name: "live", value: "")]),
            HTTPRequest(method: .get, path: "/render/\(Self.story).json"),
            HTTPRequest(method: .get, path: "/render/nope--nope.txt"),
            HTTPRequest(method: .get, path: "/api/stories/\(Self.story)/history"),
            HTTPRequest(method: .get, path: "/api/index.json"),
            HTTPRequest(method: .get, path: "/render/\(Self.story).txt", queryItems: [QueryItem(name: "locale", value: "de-DE")]),
            HTTPRequest(method: .get, path: "/api/stories/\(Self.story)", queryItems: [QueryItem(name: "colorScheme", value: "purple")]),
            HTTPRequest(method: .get, path: "/healthzz"),
            HTTPRequest(method: .get, path: "/healthz/"),
            HTTPRequest(method: .get, path: "/health"),
            HTTPRequest(method: .get, path: "/api/stories/"),
            HTTPRequest(method: .get, path: "/api/stories"),
            HTTPRequest(method: .get, path: "/render/.txt"),
            HTTPRequest(method: .get, path: "/render/\(Self.story)"),
            HTTPRequest(method: .get, path: "/render/\(Self.story).TXT"),
            HTTPRequest(method: .get, path: "/render/"),
            HTTPRequest(method: .get, path: "/render"),
        ]
        for request in declined {
            #expect(responder().response(to: RequestHead(request)) == nil, "\(request.method) \(request.path)")
        }
        #expect(responder().response(to: RequestHead(HTTPRequest(method: .head, path: "/healthz")))?.status == 200)
    }

    /// The host rule, read from the header's bytes on the loop thread: what names this server is
    /// answered, anything else left to the router (which answers 421).
    @Test func theHostRuleHoldsOnTheLoopThread() {
        _ = renders.entry(Self.story)
        let path = "/render/\(Self.story).txt"
        for host in ["127.0.0.1:6006", "localhost", "LOCALHOST:1", "localhost.", "[::1]:80"] {
            #expect(responder().response(to: RequestHead(HTTPRequest(method: .get, path: path, headers: ["host": host])))?.status == 200, "\(host)")
        }
        for host in ["evil.example", "evil.example:6006", "127.0.0.2", "", "localhost:x"] {
            let request = HTTPRequest(method: .get, path: path, headers: ["host": host])
            #expect(responder().response(to: RequestHead(request)) == nil, "\(host)")
            #expect(router().route(request).status == 421, "\(host)")
        }
    }

    /// A `/render/` name is read from its bytes: the longest format that ends it, and the id before it.
    @Test func aRenderNameSplitsIntoIdAndFormat() {
        #expect(ProjectionFormat.split(renderName: "a--b.a11y.txt")! == ("a--b", .a11y))
        #expect(ProjectionFormat.split(renderName: "a--b.txt")! == ("a--b", .text))
        #expect(ProjectionFormat.split(renderName: "/render/a--b.html", skipping: 8)! == ("a--b", .html))
        #expect(ProjectionFormat.split(renderName: "/render/é--ü.txt", skipping: 8)! == ("é--ü", .text))
        #expect(ProjectionFormat.split(renderName: ".txt")! == ("", .text))
        for name in ["a--b", "a--b.json", "a--b.txt.", "txt", "a--b.TXT", ""] {
            #expect(ProjectionFormat.split(renderName: name) == nil, "\(name)")
        }
        #expect(ProjectionFormat.split(renderName: "/render.txt", skipping: 8) == nil)
    }

    @Test func theTokenRuleHoldsOnTheLoopThread() {
        _ = renders.entry(Self.story)
        let path = "/render/\(Self.story).txt"
        let guarded = responder(token: "s3cret")
        #expect(guarded.response(to: RequestHead(HTTPRequest(method: .get, path: path))) == nil)
        #expect(guarded.response(to: RequestHead(HTTPRequest(method: .get, path: path, headers: ["authorization": "Bearer nope"]))) == nil)
        let carriers = [
            HTTPRequest(method: .get, path: path, headers: ["authorization": "Bearer s3cret"]),
            HTTPRequest(method: .get, path: path, queryItems: [QueryItem(name: "token", value: "s3cret")]),
            HTTPRequest(method: .get, path: path, headers: ["cookie": "a=b; storybook-token=s3cret"]),
        ]
        for request in carriers {
            #expect(guarded.response(to: RequestHead(request))?.status == 200)
        }
        #expect(guarded.response(to: RequestHead(HTTPRequest(method: .get, path: "/healthz")))?.status == 200)
    }
}
