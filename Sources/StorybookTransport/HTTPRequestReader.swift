import CLibWebSockets

/// Reads a parsed request head out of libwebsockets' header table. Only valid inside the callback that
/// delivers the head (`LWS_CALLBACK_HTTP` or `LWS_CALLBACK_HTTP_CONFIRM_UPGRADE`): lws reuses the table
/// afterwards.
struct HTTPRequestReader {
    let wsi: OpaquePointer

    /// The known header tokens and their lowercased names, from lws' own table ("host:" -> "host"),
    /// without the request-line tokens (methods, URI arguments, HTTP version) and HTTP/2 pseudo-headers.
    private static let headerTokens: [(token: UInt32, name: String)] = (0..<WSI_TOKEN_COUNT.rawValue).compactMap { raw in
        guard let cName = lws_token_to_string(lws_token_indexes(rawValue: raw)) else { return nil }
        let name = String(cString: cName)
        guard name.count > 1, name.hasSuffix(":"), !name.hasPrefix(":") else { return nil }
        return (raw, String(name.dropLast()))
    }

    /// What each token adds to a head besides its value: `Name: ` and the line end for a header, nothing
    /// for the request line's parts (method and target, query, version), which lws stores as tokens too.
    private static let tokenOverheads: [Int] = (0..<WSI_TOKEN_COUNT.rawValue).map { raw in
        guard let cName = lws_token_to_string(lws_token_indexes(rawValue: raw)) else { return 0 }
        let name = String(cString: cName)
        return name.count > 1 && name.hasSuffix(":") && !name.hasPrefix(":") ? name.utf8.count + 3 : 0
    }

    /// The size of the head as far as lws can tell: the request target, the query, the version and every
    /// header it knows by name or stored as one of `extraNames`, with names and line ends. Headers it
    /// neither knows nor was asked to keep are not counted (lws 4.1 has no way to list them).
    func headBytes(extraNames: ExtraHeaderNames) -> Int {
        var total = 0
        for (raw, overhead) in Self.tokenOverheads.enumerated() {
            let length = Int(lws_hdr_total_length(wsi, lws_token_indexes(rawValue: UInt32(raw))))
            if length > 0 { total += length + overhead }
        }
        for name in extraNames.names {
            let length = Int(lws_hdr_custom_length(wsi, name.lookup, name.lookupLength))
            if length >= 0 { total += length + Int(name.lookupLength) + 3 }
        }
        return total
    }

    /// The method and the decoded path, or `nil` for a method the transport does not serve (CONNECT).
    func methodAndPath() -> (HTTPMethod, String)? {
        var uri: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        let index = lws_http_get_uri_and_method(wsi, &uri, &length)
        guard index >= 0, let uri, let method = Self.method(forIndex: Int(index)) else { return nil }
        let path = String(decoding: UnsafeRawBufferPointer(start: uri, count: Int(length)), as: UTF8.self)
        return (method, path)
    }

    /// The query items, decoded, in order (lws stores each `name=value` as one fragment).
    func queryItems() -> [QueryItem] {
        var items: [QueryItem] = []
        var index: Int32 = 0
        while true {
            let length = lws_hdr_fragment_length(wsi, WSI_TOKEN_HTTP_URI_ARGS, index)
            let fragment = Self.copy(capacity: Int(length) + 1) { buffer, capacity in
                lws_hdr_copy_fragment(wsi, buffer, capacity, WSI_TOKEN_HTTP_URI_ARGS, index)
            }
            guard let fragment else { break }
            if !fragment.isEmpty {
                items.append(QueryItem(fragment: fragment))
            }
            index += 1
        }
        return items
    }

    /// Every header lws recognised, plus the `extraNames` it stored as unknown headers, by lowercased name.
    func headers(extraNames: ExtraHeaderNames) -> [String: String] {
        var headers: [String: String] = [:]
        for (raw, name) in Self.headerTokens {
            if let value = value(of: lws_token_indexes(rawValue: raw)) {
                headers[name] = value
            }
        }
        for name in extraNames.names {
            let length = lws_hdr_custom_length(wsi, name.lookup, name.lookupLength)
            guard length >= 0 else { continue }
            headers[name.key] = Self.copy(capacity: Int(length) + 1) { buffer, capacity in
                lws_hdr_custom_copy(wsi, buffer, capacity, name.lookup, name.lookupLength)
            }
        }
        return headers
    }

    /// The value of one header, looked up alone; nil when absent or empty (as in ``headers(extraNames:)``).
    func value(of header: RequestHeader) -> String? {
        switch header {
        case .authorization: value(of: WSI_TOKEN_HTTP_AUTHORIZATION)
        case .cookie: value(of: WSI_TOKEN_HTTP_COOKIE)
        case .ifNoneMatch: value(of: WSI_TOKEN_HTTP_IF_NONE_MATCH)
        case .host: value(of: WSI_TOKEN_HOST)
        case .origin: value(of: WSI_TOKEN_ORIGIN)
        case .contentType: value(of: WSI_TOKEN_HTTP_CONTENT_TYPE)
        }
    }

    /// Whether the head announces a body (`Content-Length` or `Transfer-Encoding`, even an empty or zero one).
    var announcesBody: Bool {
        lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0
            || lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0
    }

    /// Why the head's `Host` breaks RFC 9112 (none on HTTP/1.1, or more than one), or nil when it is fine.
    var hostProblem: String? {
        if lws_hdr_fragment_length(wsi, WSI_TOKEN_HOST, 1) > 0 || valueContains(UInt8(ascii: ","), WSI_TOKEN_HOST) {
            return "a request must carry exactly one Host header"
        }
        if isHTTP11, lws_hdr_total_length(wsi, WSI_TOKEN_HOST) <= 0 {
            return "an HTTP/1.1 request must carry a Host header"
        }
        return nil
    }

    /// Whether the request line says exactly `HTTP/1.1` (lws answers in the request's version).
    var isHTTP11: Bool {
        guard lws_hdr_total_length(wsi, WSI_TOKEN_HTTP) == 8 else { return false }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: 9) { buffer in
            guard let base = buffer.baseAddress, lws_hdr_copy(wsi, base, 9, WSI_TOKEN_HTTP) == 8 else { return false }
            return memcmp(base, "HTTP/1.1", 8) == 0
        }
    }

    /// Whether the header's value holds the byte, read without making a string of it.
    private func valueContains(_ byte: UInt8, _ token: lws_token_indexes) -> Bool {
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return false }
        return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length + 1) { buffer in
            guard let base = buffer.baseAddress else { return false }
            let count = lws_hdr_copy(wsi, base, Int32(length + 1), token)
            return count > 0 && memchr(base, Int32(byte), Int(count)) != nil
        }
    }

    private func value(of token: lws_token_indexes) -> String? {
        let length = lws_hdr_total_length(wsi, token)
        guard length > 0 else { return nil }
        return Self.copy(capacity: Int(length) + 1) { buffer, capacity in
            lws_hdr_copy(wsi, buffer, capacity, token)
        }
    }

    /// Runs an lws copy function into a fresh buffer; `nil` when it reports failure (a negative count).
    private static func copy(
        capacity: Int,
        _ body: (UnsafeMutablePointer<CChar>, Int32) -> Int32
    ) -> String? {
        withUnsafeTemporaryAllocation(of: CChar.self, capacity: capacity) { buffer in
            guard let base = buffer.baseAddress else { return nil }
            let count = body(base, Int32(capacity))
            guard count >= 0 else { return nil }
            return String(decoding: UnsafeRawBufferPointer(start: base, count: Int(count)), as: UTF8.self)
        }
    }

    /// lws' `LWSHUMETH_*` method index.
    private static func method(forIndex index: Int) -> HTTPMethod? {
        switch index {
        case LWSHUMETH_GET: .get
        case LWSHUMETH_POST: .post
        case LWSHUMETH_OPTIONS: .options
        case LWSHUMETH_PUT: .put
        case LWSHUMETH_PATCH: .patch
        case LWSHUMETH_DELETE: .delete
        case LWSHUMETH_HEAD: .head
        default: nil
        }
    }
}
