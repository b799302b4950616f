import CLibWebSockets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// WebSockets: reassemble incoming messages, write queued ones when the socket is writeable, close.
extension ServiceLoop {
    /// Most messages written in one writeable callback, so one busy connection cannot monopolise the loop.
    private static let maxMessagesPerWrite = 64
    /// `SO_SNDBUF` of an established WebSocket (Linux doubles it for bookkeeping and caps the request
    /// at `net.core.wmem_max`). Left to autotuning, the kernel grows it to megabytes, which a stalled
    /// reader takes many seconds to fill at a few hundred state messages per second before the socket
    /// reports choked and the slow-client clock starts. 256 KiB still keeps about 5 MB/s in flight at
    /// a 50 ms round trip, far more than state messages need, and lws buffers a larger message itself.
    static let webSocketSendBufferBytes = 256 * 1024

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
        capSendBuffer(connection)
        logger.debug("websocket opened", metadata: ["sb.conn": "\(connection.id)"])
        transport.delegate?.transport(transport, didOpen: connection.id, upgrade: upgrade)
        if lifecycle != .serving {
            closeGracefully(connection, .goingAway)
        }
        return 0
    }

    /// `LWS_CALLBACK_RECEIVE`: the next piece of a message (lws has already checked UTF-8).
    func receiveMessagePiece(_ wsi: OpaquePointer, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        guard let connection = connections.existing(wsi), let session = connection.webSocket else { return -1 }
        let outcome = session.inbound.append(
            bytes,
            isFinal: lws_is_final_fragment(wsi) != 0,
            isBinary: lws_frame_is_binary(wsi) != 0,
            declaredRemaining: Int(clamping: UInt64(lws_remaining_packet_payload(wsi)))
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

    /// `LWS_CALLBACK_WS_PEER_INITIATED_CLOSE`: lws echoes the close payload it passes here (after turning
    /// the reserved codes 1005, 1006, 1015 and others below 3000 into 1002 itself). Codes it lets through
    /// that RFC 6455 forbids (below 1000, 5000 and up) become 1002 the same way, in place; a 1-byte
    /// payload (no room for a code) fails the connection without an echo.
    func peerClosed(_ payload: UnsafeMutableRawPointer?, _ length: Int) -> Int32 {
        guard length > 0, let payload else { return 0 }
        guard length >= 2 else { return -1 }
        let bytes = payload.assumingMemoryBound(to: UInt8.self)
        let code = Int(bytes[0]) << 8 | Int(bytes[1])
        if !CloseFrame.isValidReceivedCode(code) {
            bytes[0] = UInt8(CloseFrame.protocolError >> 8)
            bytes[1] = UInt8(CloseFrame.protocolError & 0xFF)
        }
        return 0
    }

    /// `LWS_CALLBACK_SERVER_WRITEABLE`: write queued messages until the socket would block.
    func writeMessages(_ wsi: OpaquePointer) -> Int32 {
        guard let connection = connections.existing(wsi), let session = connection.webSocket else { return 0 }
        session.watchdog.madeProgress()
        var written = 0
        while !session.outbound.isEmpty {
            if written == Self.maxMessagesPerWrite || (written > 0 && lws_send_pipe_choked(wsi) != 0) {
                requestWritable(connection, session)
                return 0
            }
            let frame = session.outbound.dequeue()!
            do {
                try LWSCall.checkWrite(lws_write(wsi, frame.payload, frame.count, LWS_WRITE_TEXT), expected: frame.count)
            } catch {
                logger.debug("websocket write failed: \(error)", metadata: ["sb.conn": "\(connection.id)"])
                return -1
            }
            written += 1
        }
        if let close = session.pendingClose {
            return closeFromCallback(connection, close)
        }
        return 0
    }

    /// Mailbox `send`: queue one frame, shared by every target, and wake their writers.
    ///
    /// The per-target work is kept small, since a broadcast repeats it for every subscriber: the key is
    /// interned and the frame built once per call.
    func enqueue(_ text: [UInt8], to ids: [ConnectionID], coalescingKey: String?) {
        let key = coalescingKey.map { coalescingKeys.key(for: $0) }
        var frame: OutboundFrame?
        for id in ids {
            guard let connection = connections[id], let session = connection.webSocket, !session.isClosing else {
                continue
            }
            let shared = frame ?? OutboundFrame(text)
            frame = shared
            switch session.outbound.enqueue(shared, key: key) {
            case .appended where session.outbound.count == 1:
                requestWritable(connection, session)
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
        session.pendingClose = frame
        session.isClosing = true
        if session.outbound.isEmpty {
            requestWritable(connection, session)
        }
    }

    /// Closes from outside the connection's own callbacks: drops what is queued and closes in the next
    /// writeable callback, where lws sends the close frame and then waits a few seconds for the peer's.
    /// (Asking lws to close through a timeout would not do: lws treats a timeout as a violent death and
    /// sends no close frame.)
    func closeGracefully(_ connection: Connection, _ frame: CloseFrame) {
        guard let session = connection.webSocket else { return }
        session.outbound.removeAll()
        session.pendingClose = frame
        session.isClosing = true
        requestWritable(connection, session)
    }

    /// Drops a connection at the TCP level, without a close frame: for a peer that stopped reading, whose
    /// buffers are full, a close frame could never reach it anyway. lws closes it on its next service.
    func drop(_ connection: Connection) {
        if let session = connection.webSocket {
            session.outbound.removeAll()
            session.isClosing = true
            session.watchdog.madeProgress()
        }
        lws_set_timeout(connection.wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }

    /// Asks for a writeable callback and starts watching for the socket to accept data (the watch
    /// keeps its start if it is already running).
    private func requestWritable(_ connection: Connection, _ session: WebSocketSession) {
        lws_callback_on_writable(connection.wsi)
        session.watchdog.startWaiting(inRound: housekeepingRound)
    }

    /// Caps the kernel's send buffer of a WebSocket, so a peer that stops reading chokes the socket after
    /// a bounded amount of unread data and the slow-client watchdog starts soon (see
    /// ``webSocketSendBufferBytes``). HTTP connections keep the kernel's autotuning, which large
    /// responses benefit from.
    private func capSendBuffer(_ connection: Connection) {
        let socket = lws_get_socket_fd(connection.wsi)
        guard socket >= 0 else { return }
        var bytes = Int32(Self.webSocketSendBufferBytes)
        if setsockopt(socket, SOL_SOCKET, SO_SNDBUF, &bytes, socklen_t(MemoryLayout<Int32>.size)) != 0 {
            logger.debug("could not cap the send buffer (errno \(errno))", metadata: ["sb.conn": "\(connection.id)"])
        }
    }

    /// Closes from inside one of the connection's callbacks: the caller returns the -1 this returns.
    private func closeFromCallback(_ connection: Connection, _ frame: CloseFrame) -> Int32 {
        logger.debug("closing websocket with \(frame.code)", metadata: ["sb.conn": "\(connection.id)"])
        if let session = connection.webSocket {
            session.outbound.removeAll()
            session.isClosing = true
        }
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
