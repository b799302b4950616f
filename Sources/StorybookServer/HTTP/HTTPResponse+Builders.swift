import Foundation
import PropsCatalog
import StorybookTransport

extension HTTPResponse {
    static let jsonType = "application/json; charset=utf-8"

    /// A JSON body with the contract's Content-Type.
    static func json(_ value: JSONValue, status: Int = 200, headers: [(String, String)] = []) -> HTTPResponse {
        json(bytes: value.serializedBytes(), status: status, headers: headers)
    }

    /// Already serialized JSON with the contract's Content-Type; not cached by clients (live state).
    static func json(bytes: [UInt8], status: Int = 200, headers: [(String, String)] = []) -> HTTPResponse {
        HTTPResponse(status: status, headers: [("Content-Type", jsonType), ("Cache-Control", "no-store")] + headers, body: bytes)
    }

    /// `{"error": {"code", "message", ["path"]}}` with the status the contract gives the code.
    static func error(_ error: APIError, status: Int? = nil, headers: [(String, String)] = []) -> HTTPResponse {
        json(["error": error.json], status: status ?? error.httpStatus, headers: headers)
    }

    /// A body with a strong ETag, or 304 when the client already has it.
    static func cached(_ body: [UInt8], contentType: String, etag: String, request: HTTPRequest, cacheControl: String = "no-cache") -> HTTPResponse {
        cached(body, contentType: contentType, etag: etag, cacheControl: cacheControl,
               notModified: ETagMatcher.isNotModified(ifNoneMatch: request.headers["if-none-match"], etag: etag))
    }

    /// A body with a strong ETag (200), or the 304 that stands for it.
    static func cached(_ body: [UInt8], contentType: String, etag: String, cacheControl: String = "no-cache", notModified: Bool) -> HTTPResponse {
        let headers = [("ETag", etag), ("Cache-Control", cacheControl)]
        if notModified {
            return HTTPResponse(status: 304, headers: headers, body: [])
        }
        return HTTPResponse(status: 200, headers: [("Content-Type", contentType)] + headers, body: body)
    }
}

/// Reads `If-None-Match` lists (`"a", W/"b"`, `*`).
enum ETagMatcher {
    /// Whether a request with this `If-None-Match` (or none) gets a 304 for `etag`.
    static func isNotModified(ifNoneMatch: String?, etag: String) -> Bool {
        guard let ifNoneMatch else { return false }
        return matches(ifNoneMatch, etag)
    }

    static func matches(_ header: String, _ etag: String) -> Bool {
        header.split(separator: ",").contains { candidate in
            let trimmed = candidate.trimmingCharacters(in: .whitespaces)
            return trimmed == "*" || trimmed == etag || trimmed == "W/" + etag
        }
    }
}
