import CLibWebSockets

/// WebSockets: reassemble incoming messages, write queued ones when the socket is writeable, close.
extension ServiceLoop {
    /// Most messages written in one writeable callback, so one busy connection cannot monopolise the loop.
    private static let maxMessagesPerWrite = 64

    /// `LWS_CALLBACK_ESTABLISHED`: the handshake of an accepted upgrade completed.
    func openWebSocket(_ wsi: OpaquePointer) -> Int32 {
        let connection = connections.connection(for: wsi)
        guard let upgrade = connection.acceptedUpgrade else { return -1 }
        connection.acceptedUpgrade = nil
        connection.exchange = nil
        connection.webSocket = WebSocketSession(
            upgrade: upgrade,
            maxMessageBytes: configuration.maxMessageBytes,
            maxQueuedMessages: configuration.maxQueuedMessages
        )
        logger.debug("websocket opened", metadata: ["sb.conn": "\(connection.id)"])
        transport.delegate?.transport(transport, didOpen: connection.id, upgrade: upgrade)
        if lifecycle != .serving {
            closeGracefully(connection, .goingAway)
        }
        return 0
    }

    /// `LWS_CALLBACK_RECEIVE`: the next piece of a message (lws has already checked UTF-8).
    func receiveMessagePiece(_ wsi: OpaquePointer, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let connection = connections.existing(wsi), connection.webSocket != nil else { return -1 }
        let outcome = connection.webSocket!.inbound.append(
            bytes,
            isFinal: lws_is_final_fragment(wsi) != 0,
            isBinary: lws_frame_is_binary(wsi) != 0
        )
        switch outcome {
        case .partial:
            return 0
        case .message(let message):
            transport.delegate?.transport(transport, didReceiveMessage: message, from: connection.id)
            return 0
        case .tooLarge:
            return closeFromCallback(connection, .messageTooBig)
        case .binary:
            return closeFromCallback(connection, .unsupportedData)
        }
    }

    /// `LWS_CALLBACK_SERVER_WRITEABLE`: write queued messages until the socket would block.
    func writeMessages(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = connections.existing(wsi), connection.webSocket != nil else { return 0 }
        connection.webSocket!.watchdog.madeProgress()
        var written = 0
        while !connection.webSocket!.outbound.isEmpty {
            if written == Self.maxMessagesPerWrite || (written > 0 && lws_send_pipe_choked(wsi) != 0) {
                requestWritable(connection)
                return 0
            }
            let frame = connection.webSocket!.outbound.dequeue()!
            do {
                try LWSCall.checkWrite(lws_write(wsi, frame.payload, frame.count, LWS_WRITE_TEXT), expected: frame.count)
            } catch {
                logger.debug("websocket write failed: \(error)", metadata: ["sb.conn": "\(connection.id)"])
                return -1
            }
            written += 1
        }
        if let close = connection.webSocket!.pendingClose {
            return closeFromCallback(connection, close)
        }
        return 0
    }

    /// Mailbox `send`: queue one frame, shared by every target, and wake their writers.
    func enqueue(_ text: [UInt8], to ids: [ConnectionID], coalescingKey: String?) {
        var frame: OutboundFrame?
        for id in ids {
            guard let connection = connections[id], let session = connection.webSocket, !session.isClosing else {
                continue
            }
            let shared = frame ?? OutboundFrame(text)
            frame = shared
            switch connection.webSocket!.outbound.enqueue(shared, key: coalescingKey) {
            case .appended where connection.webSocket!.outbound.count == 1:
                requestWritable(connection)
            case .appended, .replaced:
                break
            case .overflow:
                logger.info("closing websocket: send queue overflow", metadata: ["sb.conn": "\(id)"])
                closeGracefully(connection, .queueOverflow)
            }
        }
    }

    /// Mailbox `close`: close after what is queued, or now if nothing is.
    func requestClose(_ id: ConnectionID, _ frame: CloseFrame) {
        guard let connection = connections[id], let session = connection.webSocket, !session.isClosing else { return }
        connection.webSocket!.pendingClose = frame
        connection.webSocket!.isClosing = true
        if session.outbound.isEmpty {
            requestWritable(connection)
        }
    }

    /// Closes from outside the connection's own callbacks: drops what is queued and closes in the next
    /// writeable callback, where lws sends the close frame and then waits a few seconds for the peer's.
    /// (Asking lws to close through a timeout would not do: lws treats a timeout as a violent death and
    /// sends no close frame.)
    func closeGracefully(_ connection: Connection, _ frame: CloseFrame) {
        connection.webSocket?.outbound.removeAll()
        connection.webSocket?.pendingClose = frame
        connection.webSocket?.isClosing = true
        requestWritable(connection)
    }

    /// Drops a connection at the TCP level, without a close frame: for a peer that stopped reading, whose
    /// buffers are full, a close frame could never reach it anyway. lws closes it on its next service.
    func drop(_ connection: Connection) {
        connection.webSocket?.outbound.removeAll()
        connection.webSocket?.isClosing = true
        connection.webSocket?.watchdog.madeProgress()
        lws_set_timeout(connection.wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }

    /// Asks for a writeable callback and starts watching for the socket to accept data.
    private func requestWritable(_ connection: Connection) {
        lws_callback_on_writable(connection.wsi)
        connection.webSocket?.watchdog.startWaiting(at: clock.now)
    }

    /// Closes from inside one of the connection's callbacks: the caller returns the -1 this returns.
    private func closeFromCallback(_ connection: Connection, _ frame: CloseFrame) -> Int32 {
        logger.debug("closing websocket with \(frame.code)", metadata: ["sb.conn": "\(connection.id)"])
        connection.webSocket?.outbound.removeAll()
        connection.webSocket?.isClosing = true
        setCloseReason(connection.wsi, frame)
        return -1
    }

    private func setCloseReason(_ wsi: OpaquePointer, _ frame: CloseFrame) {
        var reason = frame.reason
        reason.withUnsafeMutableBufferPointer { buffer in
            lws_close_reason(wsi, lws_close_status(rawValue: UInt32(frame.code)), buffer.baseAddress, buffer.count)
        }
    }
}
