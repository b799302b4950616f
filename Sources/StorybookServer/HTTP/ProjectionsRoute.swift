import PropsCatalog
import StorybookReview
import StorybookTransport

/// `/api/projections`: every story's projection with its content hash in one response, for CI.
///
/// - `GET /api/projections?format=text|html` answers `{"v": 1, "format", "stories": [{"id", "hash", "body"}]}`
///   in catalog order, with a strong ETag and 304 on `If-None-Match`.
/// - `POST /api/projections?format=text|html` with `{"known": {"<story-id>": "<hash>"}}` answers only
///   the stories whose hash differs or that are not known, plus `"removed"` (known ids that are gone,
///   sorted) and `"unchanged"` (how many known hashes still hold).
///
/// Each hash is `ContentHash.hex` of the body: the ETag of `/render/{id}.txt|.html` without quotes,
/// and what `storybook export` writes to index.json. `format` defaults to `text`.
struct ProjectionsRoute {
    let renders: RenderCache
    let maxJSONDepth: Int

    func respond(to request: HTTPRequest) -> HTTPResponse {
        let format: ProjectionFormat
        switch request.query["format"].map(ProjectionFormat.init(rawValue:)) {
        case nil: format = .text
        case .some(let known?): format = known
        case .some(nil): return .error(APIError(.badMessage, "format must be text, html or a11y"))
        }
        switch request.method {
        case .get, .head:
            let listing = renders.listing(format)
            return .cached(listing.bytes, contentType: HTTPResponse.jsonType, etag: listing.etag, request: request)
        case .post:
            return changes(request, format)
        default:
            return .error(APIError(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.path)"),
                          headers: [("Allow", "GET, HEAD, POST")])
        }
    }

    /// The answer to a POST: what changed since the hashes the client knows.
    private func changes(_ request: HTTPRequest, _ format: ProjectionFormat) -> HTTPResponse {
        let body: JSONValue
        do {
            body = try JSONParser.parse(request.body, maxDepth: maxJSONDepth)
        } catch {
            return .error(APIError(.badJSON, "the body is not JSON: \(error)"))
        }
        guard let known = body["known"]?.objectValue else {
            return .error(APIError(.badMessage, "the body must be {\"known\": {\"<story-id>\": \"<hash>\", ...}}", path: "/known"))
        }
        var hashes: [String: String] = [:]
        for (id, hash) in known {
            guard let hash = hash.stringValue else {
                return .error(APIError(.badMessage, "expected a hash string, found \(hash.kindDescription)",
                                        path: JSONPointer(tokens: ["known", id]).description))
            }
            hashes[id] = hash
        }
        var changed: [(id: String, entry: RenderCache.Entry)] = []
        var unchanged = 0
        var present = Set<String>()
        for story in renders.catalog.stories {
            guard let entry = renders.entry(story.id) else { continue }
            present.insert(story.id)
            if hashes[story.id] == entry.hash(format) {
                unchanged += 1
            } else {
                changed.append((story.id, entry))
            }
        }
        let removed = hashes.keys.filter { !present.contains($0) }.sorted().map(JSONValue.string)
        return .json(RenderCache.listingJSON(format, entries: changed, extra: ["removed": .array(removed), "unchanged": .integer(Int64(unchanged))]))
    }
}
