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

    /// The tokens an HTTP/1 head can carry, each followed by what it adds to a head besides its value:
    /// `Name: ` and the line end for a header, nothing for the request line's parts (method and target,
    /// query, version), which lws stores as tokens too. Left out: the parser's own states (no name)
    /// and HTTP/2's pseudo-headers (`:path`...), which lws never fills from an HTTP/1 head. Pairs of
    /// bytes in one array, for ``sb_lws_head_bytes``.
    private static let headTokens: [UInt8] = (0..<WSI_TOKEN_COUNT.rawValue).flatMap { raw -> [UInt8] in
        guard let cName = lws_token_to_string(lws_token_indexes(rawValue: raw)) else { return [] }
        let name = String(cString: cName)
        guard !name.hasPrefix(":") else { return [] }
        return [UInt8(raw), name.count > 1 && name.hasSuffix(":") ? UInt8(name.utf8.count + 3) : 0]
    }

    /// The size of the head as far as lws can tell: the request target, the query, the version and every
    /// header it knows by name or stored as one of `extraNames`, with names and line ends. Headers it
    /// neither knows nor was asked to keep are not counted (lws 4.1 has no way to list them).
    func headBytes(extraNames: ExtraHeaderNames) -> Int {
        var total = Self.headTokens.withUnsafeBufferPointer { pairs in
            Int(sb_lws_head_bytes(wsi, pairs.baseAddress, Int32(pairs.count / 2)))
        }
        for name in extraNames.names {
            let length = name.withLookup { lookup, lookupLength in Int(lws_hdr_custom_length(wsi, lookup, lookupLength)) }
            if length >= 0 { total += length + name.lookupByteCount + 3 }
        }
        return total
    }

    /// The method and the decoded path, or `nil` for a method the transport does not serve (CONNECT).
    func methodAndPath() -> (HTTPMethod, String)? {
        methodAndPathBytes().map { ($0, String(decoding: $1, as: UTF8.self)) }
    }

    /// The method and the decoded path's bytes as lws holds them (valid as long as this reader).
    func methodAndPathBytes() -> (HTTPMethod, UnsafeBufferPointer<UInt8>)? {
        var uri: UnsafeMutablePointer<CChar>?
        var length: Int32 = 0
        let index = lws_http_get_uri_and_method(wsi, &uri, &length)
        guard index >= 0, let uri, let method = Self.method(forIndex: Int(index)) else { return nil }
        return (method, UnsafeBufferPointer(start: UnsafeRawPointer(uri).assumingMemoryBound(to: UInt8.self), count: Int(length)))
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
            let value: String? = name.withLookup { lookup, lookupLength in
                let length = lws_hdr_custom_length(wsi, lookup, lookupLength)
                guard length >= 0 else { return nil }
                return Self.copy(capacity: Int(length) + 1) { buffer, capacity in
                    lws_hdr_custom_copy(wsi, buffer, capacity, lookup, lookupLength)
                }
            }
            if let value { headers[name.key] = value }
        }
        return headers
    }

    /// The value of one header, looked up alone; nil when absent or empty (as in ``headers(extraNames:)``).
    func value(of header: RequestHeader) -> String? {
        value(of: Self.token(of: header))
    }

    /// Asks `predicate` about one header's bytes, copied to the stack; nil when absent or empty.
    func value(of header: RequestHeader, satisfies predicate: (UnsafeBufferPointer<UInt8>?) -> Bool) -> Bool {
        let token = Self.token(of: header)
        let length = Int(lws_hdr_total_length(wsi, token))
        guard length > 0 else { return predicate(nil) }
        return withUnsafeTemporaryAllocation(of: UInt8.self, capacity: length + 1) { buffer in
            let count = buffer.baseAddress!.withMemoryRebound(to: CChar.self, capacity: length + 1) { base in
                lws_hdr_copy(wsi, base, Int32(length + 1), token)
            }
            return predicate(count > 0 ? UnsafeBufferPointer(rebasing: buffer[..<Int(count)]) : nil)
        }
    }

    private static func token(of header: RequestHeader) -> lws_token_indexes {
        switch header {
        case .authorization: WSI_TOKEN_HTTP_AUTHORIZATION
        case .cookie: WSI_TOKEN_HTTP_COOKIE
        case .ifNoneMatch: WSI_TOKEN_HTTP_IF_NONE_MATCH
        case .host: WSI_TOKEN_HOST
        case .origin: WSI_TOKEN_ORIGIN
        case .contentType: WSI_TOKEN_HTTP_CONTENT_TYPE
        }
    }

    /// Whether the head announces a body (`Content-Length` or `Transfer-Encoding`, even an empty or zero one).
    var announcesBody: Bool {
        lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_CONTENT_LENGTH) > 0
            || lws_hdr_total_length(wsi, WSI_TOKEN_HTTP_TRANSFER_ENCODING) > 0
    }

    /// The `Host` header's bytes, copied into `scratch` (valid until its next use); nil when there is none.
    func host(copiedInto scratch: ScratchBuffer) -> UnsafeBufferPointer<UInt8>? {
        let length = Int(lws_hdr_total_length(wsi, WSI_TOKEN_HOST))
        guard length > 0 else { return nil }
        scratch.reserve(length + 1)
        let count = scratch.start.withMemoryRebound(to: CChar.self, capacity: length + 1) { base in
            lws_hdr_copy(wsi, base, Int32(length + 1), WSI_TOKEN_HOST)
        }
        return count > 0 ? UnsafeBufferPointer(start: scratch.start, count: Int(count)) : nil
    }

    /// Why the head's `Host` (its bytes, from ``host(copiedInto:)``) breaks RFC 9112 (none on HTTP/1.1,
    /// or more than one), or nil when it is fine.
    func hostProblem(host: UnsafeBufferPointer<UInt8>?) -> String? {
        if lws_hdr_fragment_length(wsi, WSI_TOKEN_HOST, 1) > 0 || host?.contains(UInt8(ascii: ",")) == true {
            return "a request must carry exactly one Host header"
        }
        if host == nil, isHTTP11 {
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
