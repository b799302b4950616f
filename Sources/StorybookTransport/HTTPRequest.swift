/// A complete HTTP request (head and body), handed to the delegate once its body has fully arrived.
///
/// libwebsockets parses the request line itself and only exposes its *decoded* form: `%XX` escapes are
/// resolved, `+` in the query becomes a space, and `//`, `/./` and `/../` segments are normalised. The raw
/// bytes of the path and query are not available, so routing must work on the decoded path.
package struct HTTPRequest: Sendable {
    package var method: HTTPMethod
    /// The decoded, normalised path, always starting with `/` (`/api/stories/a%20b` arrives as `/api/stories/a b`).
    package var path: String
    /// The query items in the order the client sent them, decoded.
    package var queryItems: [QueryItem]
    /// Header values by lowercased name (`content-type`, `origin`, `if-none-match`, `authorization`, `host`,
    /// `connection`, `upgrade`, `cookie`, ...). Repeated headers arrive joined by libwebsockets.
    package var headers: [String: String]
    package var body: [UInt8]

    package init(
        method: HTTPMethod,
        path: String,
        queryItems: [QueryItem] = [],
        headers: [String: String] = [:],
        body: [UInt8] = []
    ) {
        self.method = method
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.body = body
    }

    /// The query as a dictionary; when a name repeats, the first occurrence wins.
    package var query: [String: String] { queryItems.firstValueByName }
}
