/// The request headers an immediate answer may look at (see ``RequestHead``), each read on its own from
/// libwebsockets' table. The raw value is the header's lowercased name in ``HTTPRequest/headers``.
package enum RequestHeader: String, Sendable, CaseIterable {
    case authorization
    case cookie
    case ifNoneMatch = "if-none-match"
    case host
    case origin
    case contentType = "content-type"
}
