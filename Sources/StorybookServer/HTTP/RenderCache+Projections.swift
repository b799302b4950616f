import PropsCatalog

extension RenderCache.Entry {
    /// `/render/{id}.txt` or `.html`: the bytes with their type and strong ETag, or 304.
    func response(_ format: ProjectionFormat, to request: HTTPRequest) -> HTTPResponse {
        .cached(body(format), contentType: format.contentType, etag: format == .text ? textETag : documentETag, request: request)
    }

    /// The bytes `/render/{id}.txt` or `.html` serves.
    func body(_ format: ProjectionFormat) -> [UInt8] {
        format == .text ? text : document
    }

    /// The content hash of `body(format)`: its ETag without the quotes.
    func hash(_ format: ProjectionFormat) -> String {
        format == .text ? textHash : documentHash
    }

    /// `ContentHash.hex` of the text projection, as the export's index.json lists it.
    var textHash: String { String(textETag.dropFirst().dropLast()) }

    /// `ContentHash.hex` of the standalone document.
    var documentHash: String { String(documentETag.dropFirst().dropLast()) }

    /// `{"id", "hash", "body"}`: one story of an `/api/projections` answer.
    func projectionJSON(id: String, _ format: ProjectionFormat) -> JSONValue {
        ["id": .string(id), "hash": .string(hash(format)), "body": .string(String(decoding: body(format), as: UTF8.self))]
    }
}

extension ProjectionFormat {
    /// The Content-Type of the projection.
    var contentType: String { self == .text ? HTTPRouter.textType : HTTPRouter.htmlType }

    /// The format a `/render/` file name asks for (`.txt` or `.html`) and the story id before it.
    static func split(renderName name: Substring) -> (id: String, format: ProjectionFormat)? {
        if name.hasSuffix(".txt") { return (String(name.dropLast(4)), .text) }
        if name.hasSuffix(".html") { return (String(name.dropLast(5)), .html) }
        return nil
    }
}

extension RenderCache {
    /// `{"v": 1, "format", "stories": [{"id", "hash", "body"}]}` for these entries, in their order,
    /// with the `extra` members besides.
    static func listingJSON(_ format: ProjectionFormat, entries: [(id: String, entry: Entry)], extra: [String: JSONValue] = [:]) -> JSONValue {
        var members: [String: JSONValue] = extra
        members["v"] = 1
        members["format"] = .string(format.rawValue)
        members["stories"] = .array(entries.map { $0.entry.projectionJSON(id: $0.id, format) })
        return .object(members)
    }
}
