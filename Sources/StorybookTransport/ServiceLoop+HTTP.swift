import CLibWebSockets

/// Plain HTTP: read the head, collect the body up to the cap, hand the request to the delegate, write
/// the answer when it comes back through the mailbox, then let lws wait for the next request.
extension ServiceLoop {
    /// `LWS_CALLBACK_HTTP`: a request head arrived.
    func beginRequest(_ wsi: OpaquePointer) -> Int32 {
        let reader = HTTPRequestReader(wsi: wsi)
        // The path stays lws' bytes until something needs it as a string (not the immediate answers).
        guard let (method, pathBytes) = reader.methodAndPathBytes() else { return -1 }
        let (host, headProblem) = checkHead(reader)
        if let headProblem {
            let connection = connections.connection(for: wsi)
            connection.exchange = HTTPExchange(request: HTTPRequest(method: method, path: String(decoding: pathBytes, as: UTF8.self)),
                                               collector: RequestBodyCollector(framing: .none, limit: 0))
            answerWithError(connection, headProblem)
            return 0
        }
        let head = RequestHead(method: method, pathBytes: pathBytes, host: host, reader: reader)
        if let result = answerImmediately(wsi, head: head, reader: reader) {
            return result
        }
        let connection = connections.connection(for: wsi)
        let request = fullRequest(reader, method: method, path: head.path)
        let framing = BodyFraming.of(
            method: method,
            contentLength: request.headers["content-length"],
            transferEncoding: request.headers["transfer-encoding"],
            limit: configuration.maxBodyBytes
        )
        switch framing {
        case .success(let framing):
            let collector = RequestBodyCollector(framing: framing, limit: configuration.maxBodyBytes)
            connection.exchange = HTTPExchange(request: request, collector: collector)
            if collector.isComplete {
                dispatch(connection)
            }
        case .failure(let error):
            connection.exchange = HTTPExchange(request: request, collector: RequestBodyCollector(framing: .none, limit: 0))
            answerWithError(connection, error)
        }
        return 0
    }

    /// The fast path for a bodiless GET or HEAD the delegate answers from memory: asked with the head as
    /// lws holds it (no connection record, no copy of every header), the answer is written within this
    /// callback (lws buffers what the socket does not take) and the transaction completes at once, with
    /// no writeable round trip. Returns the callback's result, or nil to take the ordinary path.
    private func answerImmediately(_ wsi: OpaquePointer, head: RequestHead, reader: HTTPRequestReader) -> Int32? {
        let method = head.method
        guard method == .get || method == .head, !reader.announcesBody, let delegate = transport.delegate,
              let response = delegate.transport(transport, immediateResponseTo: head)
        else { return nil }
        var output = ResponseOutput(response, omitsBody: method == .head, closesConnection: false)
        guard output.bodyBytesToSend <= HTTPResponseWriter.inlineBodyLimit else {
            // Too big for one write: send it from writeable callbacks, as any other answer.
            let connection = connections.connection(for: wsi)
            let request = fullRequest(reader, method: method, path: head.path)
            connection.exchange = HTTPExchange(request: request, collector: RequestBodyCollector(framing: .none, limit: 0))
            extendTimeoutForResponse(connection)
            respond(connection, with: response)
            return 0
        }
        var writer = HTTPResponseWriter(wsi: wsi, scratch: scratch)
        writer.requestIsHTTP11 = reader.isHTTP11
        do {
            try writer.writeAll(&output)
        } catch {
            logger.debug("HTTP write failed: \(error)")
            return -1
        }
        // 0: lws waits for the next request on this keep-alive connection; nonzero: it must close.
        return lws_http_transaction_completed(wsi) == 0 ? 0 : -1
    }

    /// The transport's own checks of a head, the same for a request and a WebSocket upgrade: its size
    /// (431) and its `Host` (RFC 9112: exactly one, and one on HTTP/1.1; 400). `Host` is copied out of
    /// lws' table once, into `hostScratch` (valid until the next head), for this check and the
    /// delegate's rules; nil when the head is too large or has none.
    func checkHead(_ reader: HTTPRequestReader) -> (host: UnsafeBufferPointer<UInt8>?, problem: RequestBodyError?) {
        if reader.headBytes(extraNames: extraHeaderNames) > configuration.maxHeadBytes {
            return (nil, .headTooLarge(limit: configuration.maxHeadBytes))
        }
        let host = reader.host(copiedInto: hostScratch)
        return (host, reader.hostProblem(host: host).map(RequestBodyError.malformed))
    }

    /// The request line and every header, for the delegate's `didReceive`.
    private func fullRequest(_ reader: HTTPRequestReader, method: HTTPMethod, path: String) -> HTTPRequest {
        HTTPRequest(
            method: method,
            path: path,
            queryItems: reader.queryItems(),
            headers: reader.headers(extraNames: extraHeaderNames)
        )
    }

    /// `LWS_CALLBACK_HTTP_BODY`: the next piece of the body.
    func receiveBody(_ wsi: OpaquePointer, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let connection = connections.existing(wsi), connection.exchange != nil else { return 0 }
        guard connection.exchange!.stage == .receivingBody else {
            // Body bytes lws attributes to a request already answered or dispatched: a body on a
            // request that declared none, or data after a chunked body. Nothing can hand them back to
            // lws as a new request, so this connection ends with the current response.
            if !bytes.isEmpty {
                connection.exchange!.closeAfterResponse = true
            }
            return 0
        }
        advance(connection, connection.exchange!.collector.consume(bytes))
        return 0
    }

    /// `LWS_CALLBACK_HTTP_BODY_COMPLETION`: lws received the declared `Content-Length`.
    func completeBody(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = connections.existing(wsi), connection.exchange?.stage == .receivingBody else {
            return 0
        }
        advance(connection, connection.exchange!.collector.finish())
        return 0
    }

    /// Mailbox `respond`: start writing the answer to the request `id` is waiting on.
    func respond(to id: ConnectionID, with response: HTTPResponse) {
        guard let connection = connections[id], connection.exchange?.stage == .awaitingResponse else {
            logger.debug("dropping HTTP response: connection gone or not waiting", metadata: ["sb.conn": "\(id)"])
            return
        }
        respond(connection, with: PreparedResponse(response))
    }

    /// Starts writing `response` to the request `connection` is waiting on.
    private func respond(_ connection: Connection, with response: PreparedResponse) {
        connection.exchange!.respond(with: response)
        lws_callback_on_writable(connection.wsi)
    }

    /// `LWS_CALLBACK_HTTP_WRITEABLE`: write what the socket takes; finish the transaction when done.
    func continueResponse(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = connections.existing(wsi), connection.exchange?.stage == .responding else {
            return 0
        }
        let writer = HTTPResponseWriter(wsi: wsi, scratch: scratch)
        do {
            guard try writer.writeAvailable(&connection.exchange!.output!) else {
                lws_callback_on_writable(wsi)
                return 0
            }
        } catch {
            logger.debug("HTTP write failed: \(error)", metadata: ["sb.conn": "\(connection.id)"])
            return -1
        }
        if connection.exchange!.closeAfterResponse {
            // Close once lws has sent what it buffered of the response (it calls back when it has).
            guard lws_send_pipe_choked(wsi) == 0 else {
                lws_callback_on_writable(wsi)
                return 0
            }
            connection.exchange = nil
            return -1
        }
        connection.exchange = nil
        // 0: lws waits for the next request on this keep-alive connection; nonzero: it must close.
        return lws_http_transaction_completed(wsi) == 0 ? 0 : -1
    }

    private func advance(_ connection: Connection, _ progress: RequestBodyCollector.Progress) {
        switch progress {
        case .needMore:
            break
        case .complete:
            dispatch(connection)
        case .failed(let error):
            answerWithError(connection, error)
        }
    }

    /// Hands the complete request to the delegate and waits for `respond`.
    private func dispatch(_ connection: Connection) {
        var request = connection.exchange!.request
        request.body = connection.exchange!.collector.takeBody()
        if connection.exchange!.collector.hasTrailingBytes {
            connection.exchange!.closeAfterResponse = true
        }
        connection.exchange!.stage = .awaitingResponse
        extendTimeoutForResponse(connection)
        guard let delegate = transport.delegate else {
            respond(connection, with: PreparedResponse(
                .transportError(status: 503, code: "unavailable", message: "the server is not ready")
            ))
            return
        }
        if let response = delegate.transport(transport, immediateResponseTo: RequestHead(request)) {
            respond(connection, with: response)
            return
        }
        delegate.transport(transport, didReceive: request, id: connection.id)
    }

    /// lws armed a timeout of its own `timeout_secs` (5 s) when the head arrived and does not clear it for
    /// bodiless requests: replace it with the application's answer time.
    private func extendTimeoutForResponse(_ connection: Connection) {
        lws_set_timeout(connection.wsi, PENDING_TIMEOUT_HTTP_CONTENT, configuration.responseSeconds)
    }

    /// Answers with the transport's own error and closes afterwards: whatever body bytes may still come
    /// would otherwise be read as the next request.
    private func answerWithError(_ connection: Connection, _ error: RequestBodyError) {
        logger.debug("refusing request body: \(error)", metadata: ["sb.conn": "\(connection.id)"])
        connection.exchange!.respond(with: PreparedResponse(error.response), closingConnection: true)
        lws_callback_on_writable(connection.wsi)
    }
}
