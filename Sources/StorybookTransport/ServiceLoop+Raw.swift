import CLibWebSockets

/// Requests lws cannot parse as HTTP it knows: a method it has no name for (`TRACE`, `PROPFIND`, `BREW`)
/// or `CONNECT`. Left to lws they would get an HTML 403 in HTTP/1.0 or a dropped connection; with
/// `LWS_SERVER_OPTION_FALLBACK_TO_APPLY_LISTEN_ACCEPT_CONFIG` lws hands the connection over as a raw
/// socket instead, and the transport answers a JSON 405 itself and closes.
extension ServiceLoop {
    /// The answer to a method this server does not have, on any path.
    static let unknownMethodAnswer: [UInt8] = {
        let body = HTTPResponse.transportError(
            status: 405, code: "method-not-allowed",
            message: "this server answers GET, HEAD, POST, PUT and PATCH only (which ones depends on the path)"
        ).body
        let head = "HTTP/1.1 405 Method Not Allowed\r\nserver: storybook\r\ncontent-type: application/json; charset=utf-8\r\n"
            + "allow: GET, HEAD, POST, PUT, PATCH\r\nconnection: close\r\ncontent-length: \(body.count)\r\n\r\n"
        return Array(head.utf8) + body
    }()

    /// `LWS_CALLBACK_RAW_ADOPT`: answer at once (lws buffers what the socket does not take), close once sent.
    func answerRawConnection(_ wsi: OpaquePointer) -> Int32 {
        let answer = Self.unknownMethodAnswer
        scratch.reserve(answer.count)
        scratch.start.update(from: answer, count: answer.count)
        guard lws_write(wsi, scratch.start, answer.count, LWS_WRITE_HTTP) == Int32(answer.count) else { return -1 }
        lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, 5)
        lws_callback_on_writable(wsi)
        return 0
    }

    /// `LWS_CALLBACK_RAW_WRITEABLE`: the answer is out once lws holds nothing more of it.
    func finishRawConnection(_ wsi: OpaquePointer) -> Int32 {
        guard lws_send_pipe_choked(wsi) == 0 else {
            lws_callback_on_writable(wsi)
            return 0
        }
        return -1
    }
}
