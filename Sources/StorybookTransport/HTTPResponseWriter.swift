import CLibWebSockets

/// Writes a ``ResponseOutput`` to an lws HTTP/1.1 connection, inside that connection's callbacks.
///
/// The head is the status line and `server` (from lws, which knows the request's HTTP version), the
/// prepared ``ResponseHead/lines``, `connection: close` when closing and `content-length` (not on 1xx,
/// 204 and 304), then the blank line: written as bytes, as lws' own HTTP/1 header helpers would (this
/// transport refuses HTTP/2). A body up to ``inlineBodyLimit`` bytes goes out in the same write as the
/// head (one `send` per small response); larger bodies follow in ``chunkSize`` slices, as many per
/// writeable callback as the socket takes without blocking.
struct HTTPResponseWriter {
    static let inlineBodyLimit = 16 * 1024
    static let chunkSize = 64 * 1024
    /// Room for the status line, `server`, `connection`, `content-length` and the blank line.
    private static let framingRoom = 512

    let wsi: OpaquePointer
    let scratch: ScratchBuffer
    /// Write the status line ourselves as HTTP/1.1 instead of through `lws_add_http_header_status`. lws
    /// takes the version from the request, which it has not parsed yet when an upgrade is refused in
    /// `HTTP_CONFIRM_UPGRADE`: it would answer "HTTP/1.0", which WebSocket clients reject.
    var writesOwnStatusLine = false
    /// The request is known to be HTTP/1.1: a 200 or 304 status line is copied from the very bytes lws
    /// would write (sparing its `snprintf`); other answers still get lws' own.
    var requestIsHTTP11 = false

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
    /// outside a writeable callback, such as a rejected upgrade or an immediate answer).
    func writeAll(_ output: inout ResponseOutput) throws(TransportError) {
        if !output.headWritten {
            try writeHead(&output)
        }
        while output.bodyOffset < output.bodyBytesToSend {
            try writeBodyChunk(&output)
        }
    }

    private func writeHead(_ output: inout ResponseOutput) throws(TransportError) {
        let head = output.response.head
        let inlineBody = output.bodyBytesToSend <= Self.inlineBodyLimit ? output.bodyBytesToSend : 0
        scratch.reserve(Self.framingRoom + head.lines.count + inlineBody)

        var cursor = HeadCursor(start: scratch.start, end: scratch.end)
        try addStatusLine(head.status, to: &cursor)
        try cursor.append(head.lines)
        if output.closesConnection {
            try cursor.append("connection: close\r\n")
        }
        if !head.forbidsBody {
            try cursor.append("content-length: ")
            try cursor.appendDecimal(output.response.body.count)
            try cursor.append("\r\n")
        }
        try cursor.append("\r\n")
        if inlineBody > 0 {
            try output.response.body.withUnsafeBufferPointer { body throws(TransportError) in
                try cursor.append(UnsafeBufferPointer(rebasing: body[..<inlineBody]))
            }
        }
        let length = cursor.position - scratch.start
        try LWSCall.checkWrite(lws_write(wsi, scratch.start, length, LWS_WRITE_HTTP_HEADERS), expected: length)
        output.headWritten = true
        output.bodyOffset = inlineBody
    }

    private func addStatusLine(_ status: Int, to cursor: inout HeadCursor) throws(TransportError) {
        if requestIsHTTP11, let line = Self.lwsHTTP11StatusLine(status) {
            try cursor.append(line)
            return
        }
        guard writesOwnStatusLine else {
            var position: UnsafeMutablePointer<UInt8>? = cursor.position
            try LWSCall.check(
                "lws_add_http_header_status",
                lws_add_http_header_status(wsi, UInt32(clamping: status), &position, cursor.end)
            )
            cursor.position = position ?? cursor.position
            return
        }
        try cursor.append(Array("HTTP/1.1 \(status) \(HTTPStatusPhrase.phrase(for: status))\r\nserver: storybook\r\n".utf8))
    }

    /// What `lws_add_http_header_status` writes for an HTTP/1.1 request (status line, then `server` with
    /// the context's server string), for the statuses answered from memory.
    private static func lwsHTTP11StatusLine(_ status: Int) -> StaticString? {
        switch status {
        case 200: "HTTP/1.1 200 OK\r\nserver: storybook\r\n"
        case 304: "HTTP/1.1 304 Not Modified\r\nserver: storybook\r\n"
        default: nil
        }
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
}
