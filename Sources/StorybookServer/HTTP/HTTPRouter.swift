import Foundation
import PropsCatalog
import StorybookReview
import StorybookTransport

/// Answers every HTTP route of the contract. Runs on the app's serial queue, never on the event
/// loop thread; testable without sockets by calling `route` with a request.
struct HTTPRouter {
    let hub: StoryHub
    let replays: ReplayController
    var review = ReviewSettings()
    let renders: RenderCache
    let staticFiles: StaticFiles?
    let access: AccessPolicy
    let maxJSONDepth: Int
    /// `/mcp`; nil answers it 404.
    var mcp: MCPEndpoint?
    /// The connected renderers (`/api/renderers`, `/render/{id}.png?renderer=`); nil serves none.
    var renderers: RendererRegistry?

    static let textType = "text/plain; charset=utf-8"
    /// The projection stylesheet the UI's preview inlines, served from the one copy in `HTMLProjection`.
    private static let previewStylesheet = Array(HTMLProjection.stylesheet.utf8)
    private static let previewStylesheetETag = ContentHash.etag(previewStylesheet)
    static let htmlType = "text/html; charset=utf-8"
    /// The rules that put the UI's preview in an environment (`?colorScheme=dark&dynamicType=...`).
    static let previewEnvironmentStylesheetName = "preview-environment.css"

    /// The path's segments after the leading `/`, percent-decoded.
    private static func segments(_ request: HTTPRequest) -> [String] {
        request.path.split(separator: "/", omittingEmptySubsequences: false).dropFirst().map {
            String($0).removingPercentEncoding ?? String($0)
        }
    }

    /// The answer that refuses `request` under the access rules (``AccessPolicy``: Host, token, Origin,
    /// media type), or nil when it may go on. Every way into the routes (``route(_:)``,
    /// ``readOnlyWork(for:)``) asks this first.
    func refusal(for request: HTTPRequest) -> HTTPResponse? {
        access.refusal(request).map { .error($0) }
    }

    /// The work of a request that only reads values and may take long (the review page's full
    /// check of every story against the goldens), with those values taken now: the app runs it off
    /// the queue that applies edits. Nil for every other request, which ``route(_:)`` answers.
    func readOnlyWork(for request: HTTPRequest) -> (@Sendable () -> HTTPResponse)? {
        guard request.method == .get || request.method == .head, Self.segments(request) == ["api", "review"],
              refusal(for: request) == nil else { return nil }
        let review = ReviewRoute(catalog: hub.catalog, directory: review.snapshotsDirectory, allowRecord: review.allowRecord)
        return { review.respond(to: request, path: []) }
    }

    func route(_ request: HTTPRequest) -> HTTPResponse {
        if let refusal = refusal(for: request) { return refusal }
        let segments = Self.segments(request)
        switch (request.method.rawValue, segments.first ?? "") {
        case ("GET", "healthz") where segments.count == 1, ("HEAD", "healthz") where segments.count == 1:
            return .json(["status": "ok"])
        case (_, "healthz") where segments.count == 1:
            return methodNotAllowed(request, allowed: "GET, HEAD")
        case (_, "api"):
            return api(request, Array(segments.dropFirst()))
        case (_, "render"):
            return render(request, Array(segments.dropFirst()))
        case (_, "ws") where segments.count == 1 && request.method != .get:
            return methodNotAllowed(request, allowed: "GET")
        case ("GET", "ws") where segments.count == 1:
            // The WebSocket endpoint: an upgrade never reaches the router, so this is a plain request.
            return .error(APIError(.upgradeRequired, "\(request.path) is the WebSocket endpoint: send a WebSocket upgrade (docs/protocol.md)"),
                          headers: [("Upgrade", "websocket"), ("Connection", "Upgrade")])
        case (_, "mcp") where segments.count == 1:
            guard let mcp else { return .error(APIError(.notFound, "no route \(request.method.rawValue) \(request.path)")) }
            return mcp.respond(to: request)
        case ("GET", RenderedStory.previewStylesheetName) where segments.count == 1, ("HEAD", RenderedStory.previewStylesheetName) where segments.count == 1:
            return .cached(Self.previewStylesheet, contentType: "text/css; charset=utf-8", etag: Self.previewStylesheetETag, request: request)
        case ("GET", Self.previewEnvironmentStylesheetName) where segments.count == 1, ("HEAD", Self.previewEnvironmentStylesheetName) where segments.count == 1:
            return withEnvironment(request) { environment in
                let bytes = Array(HTMLProjection.environmentStylesheet(environment).utf8)
                return .cached(bytes, contentType: "text/css; charset=utf-8", etag: ContentHash.etag(bytes), request: request)
            }
        case ("GET", _), ("HEAD", _):
            guard let staticFiles else { return .error(APIError(.notFound, "no such file: \(request.path)")) }
            var response = staticFiles.response(for: request)
            if request.path == "/" || request.path == "/index.html", request.query["token"] != nil,
               access.isAuthorized(headers: request.headers, query: request.query), let cookie = access.cookieHeader {
                response.headers.append(cookie)
            }
            return response
        default:
            return methodNotAllowed(request, allowed: "GET, HEAD")
        }
    }

    private func api(_ request: HTTPRequest, _ path: [String]) -> HTTPResponse {
        switch (request.method.rawValue, path.count, path.first) {
        case ("GET", 1, "index.json"), ("HEAD", 1, "index.json"):
            let index = renders.index
            return .cached(index.bytes, contentType: HTTPResponse.jsonType, etag: index.etag, request: request)
        case (_, 1, "index.json"):
            return methodNotAllowed(request, allowed: "GET, HEAD")
        case (_, 1, "renderers"):
            guard let renderers else { return .error(APIError(.notFound, "no route \(request.method.rawValue) \(request.path)")) }
            return RendererRoute(registry: renderers, hub: hub).list(request)
        case (_, 1, "projections"): return ProjectionsRoute(renders: renders, maxJSONDepth: maxJSONDepth).respond(to: request)
        case (_, 2, "stories"), (_, 3, "stories"):
            return story(request, id: path[1], action: path.count == 3 ? path[2] : nil)
        case ("POST", 4, "stories") where path[2] == "replay" && path[3] == "stop":
            guard hub.catalog.story(id: path[1]) != nil else { return .error(APIError(.notFound, "unknown story '\(path[1])'")) }
            return .json(["stopped": .bool(replays.stop(path[1]))])
        case (_, 4, "stories") where path[2] == "replay" && path[3] == "stop":
            return methodNotAllowed(request, allowed: "POST")
        case (_, _, "review"):
            return ReviewRoute(catalog: hub.catalog, directory: review.snapshotsDirectory, allowRecord: review.allowRecord)
                .respond(to: request, path: Array(path.dropFirst()))
        case ("GET", 3, "components") where path[2] == "schema":
            guard let component = hub.catalog.component(id: path[1]) else {
                return .error(APIError(.notFound, "unknown component '\(path[1])'"))
            }
            return .json(component.schema().json)
        case ("GET", 3, "components") where path[2] == "overview", ("HEAD", 3, "components") where path[2] == "overview":
            guard let overview = renders.overview(path[1]) else {
                return .error(APIError(.notFound, "unknown component '\(path[1])'"))
            }
            return .cached(overview.bytes, contentType: HTTPResponse.jsonType, etag: overview.etag, request: request)
        case (_, 3, "components") where path[2] == "overview":
            return methodNotAllowed(request, allowed: "GET, HEAD")
        case (_, 3, "components") where path[2] == "schema":
            return methodNotAllowed(request, allowed: "GET")
        default:
            return .error(APIError(.notFound, "no route \(request.method.rawValue) \(request.path)"))
        }
    }

    private func story(_ request: HTTPRequest, id: String, action: String?) -> HTTPResponse {
        switch (request.method.rawValue, action) {
        case ("GET", nil), ("HEAD", nil):
            return withEnvironment(request) { environment in
                guard !environment.isStandard else { return answer(hub.session(id)) }
                return answer(hub.session(id)) { session in .json(bytes: StateMessage(session, environment: environment).resource) }
            }
        case ("GET", "audit"), ("HEAD", "audit"):
            return withEnvironment(request) { environment in
                answer(hub.session(id)) { session in .json(session.auditJSON(in: environment)) }
            }
        case ("PUT", "props"):
            return withBase(request) { base in
                withJSONBody(request) { body in answer(hub.apply(.replace(body), to: id, base: base, source: .http)) }
            }
        case ("PATCH", "props"):
            return withBase(request) { base in withJSONBody(request) { body in
                let patch: JSONPatch
                do throws(JSONPatchError) {
                    patch = try JSONPatch(json: body)
                } catch {
                    return .error(APIError(error))
                }
                return answer(hub.apply(.patch(patch), to: id, base: base, source: .http))
            } }
        case ("POST", "reset"):
            return withBase(request) { base in answer(hub.apply(.reset, to: id, base: base, source: .http)) }
        case ("POST", "undo"):
            return withBase(request) { base in answer(hub.apply(.undo, to: id, base: base, source: .http)) }
        case ("POST", "redo"):
            return withBase(request) { base in answer(hub.apply(.redo, to: id, base: base, source: .http)) }
        case ("POST", "seek"):
            return withBase(request) { base in withJSONBody(request) { body in
                guard let version = body["version"]?.integerValue else {
                    return .error(APIError(.badMessage, "the body must be {\"version\": N}", path: "/version"))
                }
                return answer(hub.apply(.seek(version: Int(version)), to: id, base: base, source: .http))
            } }
        case ("GET", "history"):
            let since: Int?
            do throws(APIError) { since = try Self.version(request, "since") } catch { return .error(error) }
            return answer(hub.session(id)) { session in
                .json(HistoryMessage.json(session, since: since))
            }
        case ("GET", "recording"):
            let from: Int?, to: Int?
            do throws(APIError) {
                from = try Self.version(request, "from")
                to = try Self.version(request, "to")
            } catch {
                return .error(error)
            }
            return answer(hub.session(id)) { session in
                do throws(RecordingError) {
                    let recording = try Recording(session, from: from, to: to)
                    return .json(recording.json, headers: [("Content-Disposition", "attachment; filename=\"\(id).recording.json\"")])
                } catch {
                    return .error(APIError(error))
                }
            }
        case ("POST", "save"):
            return withJSONBody(request) { body in
                guard case .string(let name)? = body["name"] else {
                    return .error(APIError(.badMessage, "the body must be {\"name\": \"...\"}", path: "/name"))
                }
                switch hub.saveVariant(of: id, named: name) {
                case .success(let story):
                    renders.update(hub.catalog, unloadable: hub.unloadable)
                    return .json(["id": .string(story.id), "name": .string(story.name), "component": .string(story.component.id),
                                  "saved": true, "props": story.props], status: 201)
                case .failure(let error):
                    return .error(error)
                }
            }
        case ("POST", "replay"):
            let body = request.body.isEmpty ? Array("{}".utf8) : request.body
            return withJSONBody(HTTPRequest(method: request.method, path: request.path, body: body)) { json in
                switch replays.start(story: id, request: json) {
                case .success(let status): .json(status)
                case .failure(let error): .error(error)
                }
            }
        case (_, "props"):
            return methodNotAllowed(request, allowed: "PUT, PATCH")
        case (_, "history"), (_, "recording"):
            return methodNotAllowed(request, allowed: "GET")
        case (_, nil):
            return methodNotAllowed(request, allowed: "GET, HEAD")
        case (_, "reset"), (_, "undo"), (_, "redo"), (_, "seek"), (_, "replay"), (_, "save"):
            return methodNotAllowed(request, allowed: "POST")
        case (_, "audit"), (_, "history"), (_, "recording"):
            return methodNotAllowed(request, allowed: "GET, HEAD")
        default:
            return .error(APIError(.notFound, "no route \(request.method.rawValue) \(request.path)"))
        }
    }

    private func render(_ request: HTTPRequest, _ path: [String]) -> HTTPResponse {
        if let renderer = request.query["renderer"], path.count == 1, let renderers {
            return RendererRoute(registry: renderers, hub: hub).render(request, name: path[0], renderer: renderer)
        }
        guard path.count == 1, let (id, format) = ProjectionFormat.split(renderName: path[0]) else {
            return .error(APIError(.notFound, "no projection \(request.path): use /render/{story-id}.txt, .a11y.txt or .html"))
        }
        switch request.method.rawValue {
        case "GET", "HEAD":
            let live = request.query["live"]
            guard live == nil || ["0", "1", "true", "false"].contains(live!) else {
                return .error(APIError(.badRequest, "live must be 1, true, 0 or false, not '\(live!)'"))
            }
            return withEnvironment(request) { environment in
                if request.query["live"] == "1" || request.query["live"] == "true" {
                    return answer(hub.session(id)) { session in
                        liveProjection(session, format: format, environment: environment, request: request)
                    }
                }
                if environment.isStandard {
                    guard let entry = renders.entry(id) else { return .error(APIError(.notFound, "unknown story '\(id)'")) }
                    return entry.response(format, to: request)
                }
                guard let story = hub.catalog.story(id: id), let rendered = try? RenderedStory(story, environment: environment) else {
                    return .error(APIError(.notFound, "unknown story '\(id)'"))
                }
                let bytes = Array(rendered.body(format).utf8)
                return .cached(bytes, contentType: format.contentType, etag: ContentHash.etag(bytes, environment: environment), request: request)
            }
        case "POST":
            guard let component = hub.catalog.component(id: id) else {
                return .error(APIError(.notFound, "unknown component '\(id)'"))
            }
            return withEnvironment(request) { environment in
                withJSONBody(request) { body in
                    switch component.validate(body, in: environment) {
                    case .failure(let error):
                        return .error(APIError(error))
                    case .success(let validated):
                        let rendered = RenderedStory(view: validated.view, title: component.title, auditLevel: component.auditLevel, environment: environment)
                        return HTTPResponse(status: 200, headers: [("Content-Type", format.contentType)], body: Array(rendered.body(format).utf8))
                    }
                }
            }
        default:
            return methodNotAllowed(request, allowed: "GET, HEAD, POST")
        }
    }

    private func liveProjection(_ session: StorySession, format: ProjectionFormat, environment: ViewEnvironment, request: HTTPRequest) -> HTTPResponse {
        let projections = session.projections(in: environment)
        let body = switch format {
        case .text: projections.text
        case .a11y: projections.accessibility
        case .html: HTMLProjection.document(fragment: projections.html, title: session.documentTitle, environment: environment)
        }
        let bytes = Array(body.utf8)
        return .cached(bytes, contentType: format.contentType, etag: ContentHash.etag(bytes, environment: environment), request: request)
    }

    /// What `body` answers in the environment the query names, or 400 `bad-environment`.
    private func withEnvironment(_ request: HTTPRequest, _ body: (ViewEnvironment) -> HTTPResponse) -> HTTPResponse {
        do throws(EnvironmentError) {
            return body(try ViewEnvironment(parameters: request.query))
        } catch {
            return .error(APIError(error))
        }
    }

    /// An edit's `?base=N`: with it, the edit is made only while N is the live version (else 409 `conflict`),
    /// as `base` does over the WebSocket and MCP.
    private func withBase(_ request: HTTPRequest, _ body: (Int?) -> HTTPResponse) -> HTTPResponse {
        do throws(APIError) {
            return body(try Self.version(request, "base"))
        } catch {
            return .error(error)
        }
    }

    private func withJSONBody(_ request: HTTPRequest, _ body: (JSONValue) -> HTTPResponse) -> HTTPResponse {
        do {
            return body(try JSONParser.parse(request.body, maxDepth: maxJSONDepth))
        } catch {
            return .error(APIError(.badJSON, "the body is not JSON: \(error)"))
        }
    }

    /// The story's state resource (as published after the change), or what `body` makes of the session.
    private func answer(_ result: Result<StorySession, APIError>, _ body: ((StorySession) -> HTTPResponse)? = nil) -> HTTPResponse {
        switch result {
        case .success(let session): body?(session) ?? .json(bytes: hub.liveStates.body(of: session))
        case .failure(let error): .error(error)
        }
    }

    /// A version-number query parameter (`since`, `from`, `to`): absent, or a whole number from 0; else 400.
    private static func version(_ request: HTTPRequest, _ name: String) throws(APIError) -> Int? {
        guard let text = request.query[name] else { return nil }
        guard let value = Int(text), value >= 0, text.allSatisfy(\.isASCII) else {
            if !text.isEmpty, text.allSatisfy({ $0.isASCII && $0.isNumber }) {
                throw APIError(.badRequest, "\(name) \(text) is too large for a version number")
            }
            throw APIError(.badRequest, "\(name) must be a version number (a whole number from 0), not '\(text)'")
        }
        return value
    }

    private func methodNotAllowed(_ request: HTTPRequest, allowed: String) -> HTTPResponse {
        .error(APIError(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.path)"), headers: [("Allow", allowed)])
    }
}

/// Where the review page compares projections with goldens, and whether it may write them.
struct ReviewSettings: Sendable {
    var snapshotsDirectory: String?
    var allowRecord = false
}
