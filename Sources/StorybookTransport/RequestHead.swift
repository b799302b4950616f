/// A request as ``TransportDelegate/transport(_:immediateResponseTo:)`` sees it: the method and the
/// path, with the query and the ``RequestHeader``s read only when asked.
///
/// For a bodiless GET or HEAD the transport asks straight from libwebsockets' header table, without
/// copying the whole head first; such a value is valid only during that call (hence not `Sendable`).
package struct RequestHead {
    package let method: HTTPMethod
    private let source: Source

    private enum Source {
        /// lws' header table, read on demand (loop thread, inside the request's callback), the path's
        /// bytes in it and the `Host` the transport already copied out of it.
        case table(HTTPRequestReader, path: UnsafeBufferPointer<UInt8>, host: UnsafeBufferPointer<UInt8>?)
        /// A request read in full: one that had a body, or one built by a test.
        case request(HTTPRequest)
    }

    init(method: HTTPMethod, pathBytes: UnsafeBufferPointer<UInt8>, host: UnsafeBufferPointer<UInt8>?, reader: HTTPRequestReader) {
        self.method = method
        source = .table(reader, path: pathBytes, host: host)
    }

    package init(_ request: HTTPRequest) {
        method = request.method
        source = .request(request)
    }

    /// The decoded, normalised path (see ``HTTPRequest/path``), made into a string when asked for.
    package var path: String {
        switch source {
        case .table(_, let path, _): String(decoding: path, as: UTF8.self)
        case .request(let request): request.path
        }
    }

    /// The path's bytes as lws holds them, for a head read from its table (valid as long as the head);
    /// nil for a request read in full, whose ``path`` is already a string.
    package var pathBytes: UnsafeBufferPointer<UInt8>? {
        switch source {
        case .table(_, let path, _): path
        case .request: nil
        }
    }

    /// The header's value; nil when the request has none.
    package func value(of header: RequestHeader) -> String? {
        switch source {
        case .table(_, _, let host) where header == .host: host.map { String(decoding: $0, as: UTF8.self) }
        case .table(let reader, _, _): reader.value(of: header)
        case .request(let request): request.headers[header.rawValue]
        }
    }

    /// Asks `predicate` about the header's bytes, without making a string of them; nil where
    /// ``value(of:)`` is nil. (Not generic: called from another module, a generic would look up its
    /// type metadata on every request.)
    package func value(of header: RequestHeader, satisfies predicate: (UnsafeBufferPointer<UInt8>?) -> Bool) -> Bool {
        switch source {
        case .table(_, _, let host) where header == .host:
            return predicate(host)
        case .table(let reader, _, _):
            return reader.value(of: header, satisfies: predicate)
        case .request(let request):
            guard var value = request.headers[header.rawValue] else { return predicate(nil) }
            return value.withUTF8 { predicate($0) }
        }
    }

    /// The query items in the order the client sent them, decoded.
    package var queryItems: [QueryItem] {
        switch source {
        case .table(let reader, _, _): reader.queryItems()
        case .request(let request): request.queryItems
        }
    }
}
