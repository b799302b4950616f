import PropsCatalog
import StorybookReview
import StorybookTransport

extension RenderCache.Entry {
    /// `/render/{id}.txt`, `.a11y.txt` or `.html`: the bytes with their type and strong ETag, or 304.
    func response(_ format: ProjectionFormat, to request: HTTPRequest) -> HTTPResponse {
        .cached(body(format), contentType: format.contentType, etag: etag(format), request: request)
    }

    /// The same answer for the loop thread: the text's 200 and 304 are kept prepared; the document is
    /// built when asked for.
    func preparedResponse(_ format: ProjectionFormat, ifNoneMatch: String?) -> PreparedResponse {
        switch format {
        case .text: return textAnswer.response(ifNoneMatch: ifNoneMatch)
        case .a11y: return accessibilityAnswer.response(ifNoneMatch: ifNoneMatch)
        case .html: break
        }
        let notModified = ETagMatcher.isNotModified(ifNoneMatch: ifNoneMatch, etag: documentETag)
        return PreparedResponse(.cached(notModified ? [] : document, contentType: format.contentType, etag: documentETag, notModified: notModified))
    }

    /// The strong ETag of `body(format)`.
    func etag(_ format: ProjectionFormat) -> String {
        switch format {
        case .text: textETag
        case .html: documentETag
        case .a11y: accessibilityAnswer.etag
        }
    }

    /// The bytes `/render/{id}.txt` or `.html` serves.
    func body(_ format: ProjectionFormat) -> [UInt8] {
        switch format {
        case .text: text
        case .html: document
        case .a11y: accessibilityAnswer.body
        }
    }

    /// The content hash of `body(format)`: its ETag without the quotes.
    func hash(_ format: ProjectionFormat) -> String {
        String(etag(format).dropFirst().dropLast())
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
    var contentType: String { self == .html ? HTTPRouter.htmlType : HTTPRouter.textType }

    /// The format a `/render/` file name asks for (`.txt`, `.a11y.txt` or `.html`) and the story id
    /// before it. The first `prefixLength` bytes of `name` are skipped (the `/render/` of a whole path).
    /// Read as bytes: the loop thread asks this for every `/render/` request.
    static func split(renderName name: String, skipping prefixLength: Int = 0) -> (id: String, format: ProjectionFormat)? {
        var name = name
        return name.withUTF8 { bytes in
            splitBytes(renderName: bytes, skipping: prefixLength).map { (String(decoding: $0.id, as: UTF8.self), $0.format) }
        }
    }

    /// ``split(renderName:skipping:)`` on the name's UTF-8 bytes, the id as the bytes it spans in them.
    static func splitBytes(renderName bytes: UnsafeBufferPointer<UInt8>, skipping prefixLength: Int = 0)
        -> (id: UnsafeBufferPointer<UInt8>, format: ProjectionFormat)? {
        for (suffix, format) in fileExtensions {
            let stemEnd = bytes.count - suffix.count
            guard stemEnd >= prefixLength, bytes.holds(suffix, at: stemEnd) else { continue }
            return (UnsafeBufferPointer(rebasing: bytes[prefixLength..<stemEnd]), format)
        }
        return nil
    }

    /// Each format's file extension, longest first (`.a11y.txt` also ends in `.txt`).
    private static let fileExtensions: [([UInt8], ProjectionFormat)] = [
        (Array(".a11y.txt".utf8), .a11y), (Array(".txt".utf8), .text), (Array(".html".utf8), .html),
    ]
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
