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
    private static let healthPath = Array("/healthz".utf8)
    private static let storiesPrefix = Array("/api/stories/".utf8)
    private static let renderPrefix = Array("/render/".utf8)

    func response(to request: RequestHead) -> PreparedResponse? {
        guard request.method == .get || request.method == .head, access.refusal(request) == nil else { return nil }
        if let bytes = request.pathBytes { return answer(request, path: bytes) }
        var path = request.path
        return path.withUTF8 { answer(request, path: $0) }
    }

    /// The answer for the path's bytes, which must outlive this call only (the route points into them).
    private func answer(_ request: RequestHead, path: UnsafeBufferPointer<UInt8>) -> PreparedResponse? {
        switch Self.route(path) {
        case .health: Self.health
        case .liveState(let id): liveState(request, id: id)
        case .projection(let id, let format): projection(request, id: id, format: format)
        case nil: nil
        }
    }

    /// The immediate routes, told apart by the path's bytes (the ids point into them).
    private enum Route {
        case health
        /// `/api/stories/{id}`, with the id's bytes in the path (no `/` in it).
        case liveState(id: UnsafeBufferPointer<UInt8>)
        /// `/render/{id}.txt|.a11y.txt|.html`, with the id's bytes in the path.
        case projection(id: UnsafeBufferPointer<UInt8>, format: ProjectionFormat)
    }

    private static func route(_ path: UnsafeBufferPointer<UInt8>) -> Route? {
        if path.count == healthPath.count, path.holds(healthPath, at: 0) { return .health }
        if path.holds(storiesPrefix, at: 0) {
            let id = UnsafeBufferPointer(rebasing: path[storiesPrefix.count...])
            guard !id.contains(UInt8(ascii: "/")) else { return nil }
            return .liveState(id: id)
        }
        guard path.holds(renderPrefix, at: 0),
              let (id, format) = ProjectionFormat.splitBytes(renderName: path, skipping: renderPrefix.count) else { return nil }
        return .projection(id: id, format: format)
    }

    /// `GET /api/stories/{id}`: the cached state resource of the story's current version.
    private func liveState(_ request: RequestHead, id: UnsafeBufferPointer<UInt8>) -> PreparedResponse? {
        guard !request.queryItems.contains(where: { ViewEnvironment.parameterNames.contains($0.name) }),
              let body = liveStates.body(utf8: id) else { return nil }
        return PreparedResponse(head: Self.liveStateHead, body: body)
    }

    /// `GET /render/{id}.txt|.a11y.txt|.html`: the registered variant's projection, or its 304.
    private func projection(_ request: RequestHead, id: UnsafeBufferPointer<UInt8>, format: ProjectionFormat) -> PreparedResponse? {
        let query = request.queryItems
        guard !query.contains(where: { $0.name == "live" || $0.name == "renderer" || ViewEnvironment.parameterNames.contains($0.name) }),
              let entry = renders.cached(utf8: id) else { return nil }
        return entry.preparedResponse(format, ifNoneMatch: request.value(of: .ifNoneMatch))
    }
}
