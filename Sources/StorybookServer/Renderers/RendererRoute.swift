import PropsCatalog
import StorybookTransport

/// The renderers over HTTP, for CI: `GET /api/renderers` and a renderer's latest render of a story's
/// live state, `GET /render/{id}.png?renderer=NAME` (or `.txt`). Runs on the app queue.
struct RendererRoute {
    let registry: RendererRegistry
    let hub: StoryHub

    /// `GET /api/renderers`
    func list(_ request: HTTPRequest) -> HTTPResponse {
        guard request.method == .get || request.method == .head else {
            return .error(APIError(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.path)"), headers: [("Allow", "GET, HEAD")])
        }
        return .json(registry.resource, headers: [("Cache-Control", "no-store")])
    }

    /// `GET /render/{name}?renderer=NAME` where `name` is `{id}.png` or `{id}.txt`.
    func render(_ request: HTTPRequest, name fileName: String, renderer name: String) -> HTTPResponse {
        guard request.method == .get || request.method == .head else {
            return .error(APIError(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.path)?renderer="), headers: [("Allow", "GET, HEAD")])
        }
        let isImage = fileName.hasSuffix(".png")
        guard isImage || fileName.hasSuffix(".txt") else {
            return .error(APIError(.notFound, "a renderer's report is served as /render/{story-id}.png or .txt?renderer=NAME"))
        }
        let story = String(fileName.dropLast(4))
        guard let renderer = registry.renderer(named: name) else {
            let connected = registry.all.map(\.name)
            return .error(APIError(.notFound, "no renderer named '\(name)' is connected (connected: \(connected.isEmpty ? "none" : connected.joined(separator: ", ")))"))
        }
        let live: Int
        switch hub.session(story) {
        case .success(let session): live = session.version
        case .failure(let error): return .error(error)
        }
        guard let report = renderer.reports[story] else {
            return .error(APIError(.notFound, "the renderer '\(name)' has not reported on '\(story)' (show it the story first)"))
        }
        guard report.version == live else {
            return .error(APIError(.notFound, "the renderer '\(name)' last rendered version \(report.version) of '\(story)'; the live version is \(live)"))
        }
        let headers = [("Cache-Control", "no-store"), ("X-Storybook-Version", "\(report.version)")]
        if isImage, let image = report.content.image {
            return HTTPResponse(status: 200, headers: [("Content-Type", "image/png")] + headers, body: image)
        }
        if !isImage, let text = report.content.text {
            return HTTPResponse(status: 200, headers: [("Content-Type", HTTPRouter.textType)] + headers, body: Array(text.utf8))
        }
        if let error = report.content.error {
            return .error(APIError(.notFound, "the renderer '\(name)' failed to render version \(live) of '\(story)': \(error)"))
        }
        let other = isImage ? "text (.txt)" : "an image (.png)"
        return .error(APIError(.notFound, "the renderer '\(name)' reported \(other) for version \(live) of '\(story)', no \(isImage ? "image" : "text")"))
    }
}
