import StorybookTransport
/// A body with a strong ETag and both of its answers prepared once, the 200 and the 304 for a matching
/// `If-None-Match`, so that the loop thread serves either with a copy.
struct CachedAnswer: Sendable {
    let etag: String
    let ok: PreparedResponse
    let notModified: PreparedResponse

    init(_ body: [UInt8], contentType: String, etag: String) {
        self.etag = etag
        ok = PreparedResponse(.cached(body, contentType: contentType, etag: etag, notModified: false))
        notModified = PreparedResponse(.cached(body, contentType: contentType, etag: etag, notModified: true))
    }

    /// The body's bytes.
    var body: [UInt8] { ok.body }

    /// The answer to a request carrying this `If-None-Match` (or none).
    func response(ifNoneMatch: String?) -> PreparedResponse {
        ETagMatcher.isNotModified(ifNoneMatch: ifNoneMatch, etag: etag) ? notModified : ok
    }
}
