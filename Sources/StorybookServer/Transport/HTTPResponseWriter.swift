import CLibWebSockets

/// Writes a ``ResponseOutput`` to an lws HTTP/1.1 connection, inside that connection's callbacks.
///
/// The head is built with lws' header helpers: status line, `server`, the application's headers and
/// `content-length` (not on 1xx, 204 and 304). A body up to ``inlineBodyLimit`` bytes goes out in the
/// same write as the head (one `send` per small response); larger bodies follow in ``chunkSize``
/// slices, as many per writeable callback as the socket takes without blocking.
struct HTTPResponseWriter {
    static let inlineBodyLimit = 16 * 1024
    static let chunkSize = 64 * 1024

    let wsi: OpaquePointer
    let scratch: ScratchBuffer
    /// Write the status line ourselves as HTTP/1.1 instead of through `lws_add_http_header_status`. lws
    /// takes the version from the request, which it has not parsed yet when an upgrade is refused in
    /// `HTTP_CONFIRM_UPGRADE`: it would answer "HTTP/1.0", which WebSocket clients reject.
    var writesOwnStatusLine = false

    /// Writes what the socket accepts now; `true` once everything is written.
    func writeAvailable(_ output: inout ResponseOutput) throws(TransportError) -> Bool {
        if !output.headWritten {
            try writeHead(&output)
        }
        while output.bodyOffset < output.bodyBytesToSend {
            guard lws_send_pipe_choked(wsi) == 0 else { return false }
            try writeBodyChunk(&output)
        }
        return true
    }

    /// Writes everything now, letting lws buffer what the socket does not take (for small answers given
    /// outside a writeable callback, such as a rejected upgrade).
    func writeAll(_ output: inout ResponseOutput) throws(TransportError) {
        if !output.headWritten {
            try writeHead(&output)
        }
        while output.bodyOffset < output.bodyBytesToSend {
            try writeBodyChunk(&output)
        }
    }

    private func writeHead(_ output: inout ResponseOutput) throws(TransportError) {
        let headers = output.response.applicationHeaders.filter(Self.isValidHeader)
        let inlineBody = output.bodyBytesToSend <= Self.inlineBodyLimit ? output.bodyBytesToSend : 0
        let headEstimate = 512 + headers.reduce(0) { $0 + $1.0.utf8.count + $1.1.utf8.count + 4 }
        scratch.reserve(headEstimate + inlineBody)

        var cursor: UnsafeMutablePointer<UInt8>? = scratch.start
        let end = scratch.end
        try addStatusLine(output.response.status, cursor: &cursor, end: end)
        for (name, value) in headers {
            try addHeader(name: name, value: value, cursor: &cursor, end: end)
        }
        if output.closesConnection {
            try addHeader(name: "connection", value: "close", cursor: &cursor, end: end)
        }
        if !output.statusForbidsBody {
            try LWSCall.check(
                "lws_add_http_header_content_length",
                lws_add_http_header_content_length(wsi, lws_filepos_t(output.response.body.count), &cursor, end)
            )
        }
        try LWSCall.check("lws_finalize_http_header", lws_finalize_http_header(wsi, &cursor, end))
        guard let headEnd = cursor else { throw .callFailed("lws_finalize_http_header", code: 0) }

        if inlineBody > 0 {
            output.response.body.withUnsafeBufferPointer { body in
                headEnd.update(from: body.baseAddress!, count: inlineBody)
            }
        }
        let length = headEnd - scratch.start + inlineBody
        try LWSCall.checkWrite(lws_write(wsi, scratch.start, length, LWS_WRITE_HTTP_HEADERS), expected: length)
        output.headWritten = true
        output.bodyOffset = inlineBody
    }

    private func addStatusLine(
        _ status: Int,
        cursor: inout UnsafeMutablePointer<UInt8>?,
        end: UnsafeMutablePointer<UInt8>
    ) throws(TransportError) {
        guard writesOwnStatusLine else {
            try LWSCall.check(
                "lws_add_http_header_status",
                lws_add_http_header_status(wsi, UInt32(clamping: status), &cursor, end)
            )
            return
        }
        let line = Array("HTTP/1.1 \(status) \(HTTPStatusPhrase.phrase(for: status))\r\nserver: storybook\r\n".utf8)
        guard let start = cursor, end - start >= line.count else {
            throw .callFailed("status line", code: 0)
        }
        start.update(from: line, count: line.count)
        cursor = start + line.count
    }

    private func writeBodyChunk(_ output: inout ResponseOutput) throws(TransportError) {
        let offset = output.bodyOffset
        let count = min(Self.chunkSize, output.bodyBytesToSend - offset)
        scratch.reserve(count)
        output.response.body.withUnsafeBufferPointer { body in
            scratch.start.update(from: body.baseAddress! + offset, count: count)
        }
        let isLast = offset + count == output.bodyBytesToSend
        let kind = isLast ? LWS_WRITE_HTTP_FINAL : LWS_WRITE_HTTP
        try LWSCall.checkWrite(lws_write(wsi, scratch.start, count, kind), expected: count)
        output.bodyOffset = offset + count
    }

    private func addHeader(
        name: String,
        value: String,
        cursor: inout UnsafeMutablePointer<UInt8>?,
        end: UnsafeMutablePointer<UInt8>
    ) throws(TransportError) {
        let result = (name + ":").withCString { cName in
            value.withCString { cValue in
                lws_add_http_header_by_name(
                    wsi,
                    UnsafeRawPointer(cName).assumingMemoryBound(to: UInt8.self),
                    UnsafeRawPointer(cValue).assumingMemoryBound(to: UInt8.self),
                    Int32(value.utf8.count),
                    &cursor,
                    end
                )
            }
        }
        try LWSCall.check("lws_add_http_header_by_name", result)
    }

    /// Header names must be non-empty tokens and values free of line breaks (no header injection);
    /// invalid headers are left out.
    private static func isValidHeader(_ header: (String, String)) -> Bool {
        let (name, value) = header
        let nameIsToken = !name.isEmpty && name.utf8.allSatisfy { tokenBytes[Int($0)] }
        let valueIsSafe = value.utf8.allSatisfy { $0 != 0x0D && $0 != 0x0A && $0 != 0x00 }
        return nameIsToken && valueIsSafe
    }

    /// Which bytes may appear in a header name (RFC 9110 token characters), built once.
    private static let tokenBytes: [Bool] = {
        let separators = Set("()<>@,;:\\\"/[]?={} \t".utf8)
        return (0..<256).map { byte in byte > 0x20 && byte < 0x7F && !separators.contains(UInt8(byte)) }
    }()
}
