/// A request as ``TransportDelegate/transport(_:immediateResponseTo:)`` sees it: the method and the
/// path, with the query and the ``RequestHeader``s read only when asked.
///
/// For a bodiless GET or HEAD the transport asks straight from libwebsockets' header table, without
/// copying the whole head first; such a value is valid only during that call (hence not `Sendable`).
package struct RequestHead {
    package let method: HTTPMethod
    /// The decoded, normalised path (see ``HTTPRequest/path``).
    package let path: String
    private let source: Source

    private enum Source {
        /// lws' header table, read on demand (loop thread, inside the request's callback).
        case table(HTTPRequestReader)
        /// A request read in full: one that had a body, or one built by a test.
        case request(HTTPRequest)
    }

    init(method: HTTPMethod, path: String, reader: HTTPRequestReader) {
        self.method = method
        self.path = path
        source = .table(reader)
    }

    package init(_ request: HTTPRequest) {
        method = request.method
        path = request.path
        source = .request(request)
    }

    /// The header's value; nil when the request has none.
    package func value(of header: RequestHeader) -> String? {
        switch source {
        case .table(let reader): reader.value(of: header)
        case .request(let request): request.headers[header.rawValue]
        }
    }

    /// The query items in the order the client sent them, decoded.
    package var queryItems: [QueryItem] {
        switch source {
        case .table(let reader): reader.queryItems()
        case .request(let request): request.queryItems
        }
    }
}
