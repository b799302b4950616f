import PropsCatalog
import StorybookReview
import StorybookTransport

/// The answers the loop thread gives at once from memory, with no hand-over to the app's queue: the
/// health check, a story's live state (`GET /api/stories/{id}`) and a projection already rendered
/// (`GET /render/{id}.txt|.a11y.txt|.html` without `?live` or an environment). Anything else, or anything not in memory yet, is
/// left to ``HTTPRouter`` (nil), which gives the same answers.
struct ImmediateResponder {
    let renders: RenderCache
    let liveStates: LiveStateCache
    let access: AccessPolicy

    private static let health = PreparedResponse(.json(["status": "ok"]))
    /// The head of every live-state answer; only the body and its length change with the version.
    private static let liveStateHead = PreparedResponse(.json(bytes: [])).head
    private static let storiesPrefix = "/api/stories/"
    private static let renderPrefix = "/render/"

    func response(to request: RequestHead) -> PreparedResponse? {
        guard request.method == .get || request.method == .head, access.refusal(request) == nil else { return nil }
        let path = request.path
        if path == "/healthz" { return Self.health }
        if path.hasPrefix(Self.storiesPrefix) {
            return liveState(request, id: path.utf8.dropFirst(Self.storiesPrefix.utf8.count))
        }
        guard path.hasPrefix(Self.renderPrefix) else { return nil }
        return projection(request)
    }

    /// `GET /api/stories/{id}`: the cached state resource of the story's current version.
    private func liveState(_ request: RequestHead, id: Substring.UTF8View) -> PreparedResponse? {
        guard !id.contains(UInt8(ascii: "/")),
              !request.queryItems.contains(where: { ViewEnvironment.parameterNames.contains($0.name) }),
              let body = liveStates.body(String(Substring(id))) else { return nil }
        return PreparedResponse(head: Self.liveStateHead, body: body)
    }

    /// `GET /render/{id}.txt|.html`: the registered variant's projection, or its 304.
    private func projection(_ request: RequestHead) -> PreparedResponse? {
        let query = request.queryItems
        guard !query.contains(where: { $0.name == "live" || $0.name == "renderer" || ViewEnvironment.parameterNames.contains($0.name) }),
              let (id, format) = ProjectionFormat.split(renderName: request.path, skipping: Self.renderPrefix.utf8.count),
              let entry = renders.cached(id) else { return nil }
        return entry.preparedResponse(format, ifNoneMatch: request.value(of: .ifNoneMatch))
    }
}
