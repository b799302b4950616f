import CLibWebSockets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// WebSockets, spoken by the transport itself over lws raw sockets (see ServiceLoop+Upgrade): complete the
/// handshake, read frames, write queued ones when the socket is writeable, ping the silent, close.
extension ServiceLoop {
    /// Most frames written in one writeable callback, so one busy connection cannot monopolise the loop.
    private static let maxFramesPerWrite = 64
    /// How long the client has to answer the server's close frame, and to close its side after the
    /// server shut down its own, before lws drops the connection.
    private static let closeGraceSeconds: Int32 = 5
    /// `SO_SNDBUF` of an established WebSocket (Linux doubles it for bookkeeping and caps the request
    /// at `net.core.wmem_max`). Left to autotuning, the kernel grows it to megabytes, which a stalled
    /// reader takes many seconds to fill at a few hundred state messages per second before the socket
    /// reports choked and the slow-client clock starts. 256 KiB still keeps about 5 MB/s in flight at
    /// a 50 ms round trip, far more than state messages need, and lws buffers a larger message itself.
    static let webSocketSendBufferBytes = 256 * 1024

    /// `LWS_CALLBACK_RAW_ADOPT` of a socket taken over from an accepted upgrade: answer 101, open.
    func openWebSocket(_ wsi: OpaquePointer, _ takeover: WebSocketTakeover) -> Int32 {
        let connection = connections.connection(for: wsi)
        let head = takeover.handshake.responseHead
        scratch.reserve(head.count)
        scratch.start.update(from: head, count: head.count)
        guard lws_write(wsi, scratch.start, head.count, LWS_WRITE_HTTP) == Int32(head.count) else { return -1 }
        connection.webSocket = WebSocketSession(
            upgrade: takeover.upgrade,
            maxMessageBytes: configuration.maxMessageBytes,
            maxQueuedMessages: configuration.maxQueuedMessages,
            now: clock.now
        )
        connections.slotWebSocket(connection)
        capSendBuffer(connection)
        logger.debug("websocket opened", metadata: ["sb.conn": "\(connection.id)"])
        transport.delegate?.transport(transport, didOpen: connection.id, upgrade: takeover.upgrade)
        if lifecycle != .serving {
            closeGracefully(connection, .goingAway)
        }
        return 0
    }

    /// `LWS_CALLBACK_RAW_RX` of a WebSocket: read the frames these bytes complete.
    func receiveFrames(_ connection: Connection, _ session: WebSocketSession, _ bytes: UnsafeRawBufferPointer) -> Int32 {
        session.lastHeard = clock.now
        session.pinged = false
        guard session.closing == .open || session.closing == .awaitingPeer else { return 0 }
        session.reader.read(bytes) { event in
            switch event {
            case .message(let message):
                guard session.closing == .open else { return }
                transport.delegate?.transport(transport, didReceiveMessage: message, from: connection.id)
            case .ping(let payload):
                guard session.closing == .open else { return }
                session.pong = OutboundFrame(opcode: 10, payload)
                requestWritable(connection, session)
            case .pong:
                break
            case .close(let echo):
                // An answer to the server's close needs no echo; a close the client started does.
                finish(connection, session, lastFrame: session.closing == .open ? OutboundFrame(opcode: 8, echo) : nil)
            case .fail(let frame):
                logger.debug("failing websocket with \(frame.code)", metadata: ["sb.conn": "\(connection.id)"])
                // Once the server's own close is out, no second one follows (RFC 6455 5.5.1).
                finish(connection, session, lastFrame: session.closing == .open ? OutboundFrame(close: frame) : nil)
            }
        }
        if session.closing == .finishing {
            // Write the last frame now rather than in the next writeable callback: a client that
            // half-closes after its close frame would make lws close the connection on reading its end
            // before that callback came. (lws reads only when nothing of earlier writes is waiting.)
            return writeFrames(connection, session)
        }
        return 0
    }

    /// `LWS_CALLBACK_RAW_WRITEABLE` of a WebSocket: write control frames, then queued messages, until the
    /// socket would block; then the close that was asked for, and once a finished connection's last
    /// frame is out, shut down the server's side.
    func writeFrames(_ connection: Connection, _ session: WebSocketSession) -> Int32 {
        session.watchdog.madeProgress()
        guard session.closing != .shutDown else { return 0 }
        let wsi = connection.wsi
        var written = 0
        while session.hasOutput || (session.pendingClose != nil && session.closing == .open) {
            // Asking whether the socket is choked is a poll(2): only before a second frame, not after the last.
            if written > 0, written == Self.maxFramesPerWrite || lws_send_pipe_choked(wsi) != 0 {
                requestWritable(connection, session)
                return 0
            }
            guard let frame = nextFrame(connection, session) else { break }
            do {
                try LWSCall.checkWrite(lws_write(wsi, frame.bytes, frame.count, LWS_WRITE_HTTP), expected: frame.count)
            } catch {
                logger.debug("websocket write failed: \(error)", metadata: ["sb.conn": "\(connection.id)"])
                return -1
            }
            written += 1
        }
        if session.closing == .finishing {
            // lws only calls back once what it buffered of earlier writes is out, so after one more
            // callback with nothing left to write, the close frame has reached the kernel.
            if written > 0 {
                requestWritable(connection, session)
            } else {
                shutdown(lws_get_socket_fd(wsi), Int32(SHUT_WR))
                session.closing = .shutDown
                lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, Self.closeGraceSeconds)
                finishDrainingIfDone()
            }
        }
        return 0
    }

    /// The next frame to write: a control frame, a queued message, or the close asked for once the queue
    /// is empty.
    private func nextFrame(_ connection: Connection, _ session: WebSocketSession) -> OutboundFrame? {
        if let last = session.finalClose {
            session.finalClose = nil
            return last
        }
        if let pong = session.pong {
            session.pong = nil
            return pong
        }
        if let ping = session.ping {
            session.ping = nil
            return ping
        }
        if let message = session.outbound.dequeue() {
            return message
        }
        if let close = session.pendingClose, session.closing == .open {
            session.pendingClose = nil
            session.closing = .awaitingPeer
            lws_set_timeout(connection.wsi, PENDING_TIMEOUT_CLOSE_ACK, Self.closeGraceSeconds)
            logger.debug("closing websocket with \(close.code)", metadata: ["sb.conn": "\(connection.id)"])
            return OutboundFrame(close: close)
        }
        return nil
    }

    /// The closing handshake is over (or the connection failed): nothing is written but `lastFrame`,
    /// then the server's side is shut down.
    private func finish(_ connection: Connection, _ session: WebSocketSession, lastFrame: OutboundFrame?) {
        session.discardOutput()
        session.finalClose = lastFrame
        session.closing = .finishing
        lws_set_timeout(connection.wsi, PENDING_TIMEOUT_CLOSE_SEND, Self.closeGraceSeconds)
        requestWritable(connection, session)
        reportClosed(connection)
    }

    /// Mailbox `send`: queue one frame, shared by every target, and wake their writers.
    ///
    /// The per-target work is kept small, since a broadcast repeats it for every subscriber: the key is
    /// interned and the frame built once per call. A message that depends on the previous one and found
    /// a message of its key waiting is not queued, and is reported to the delegate, for the connections
    /// it happened to; after that, such messages of that key are dropped for them until an independent
    /// one comes (``OutboundQueue``).
    func enqueue(_ text: [UInt8], to ids: [ConnectionID], coalescingKey: String?, dependsOnPrevious: Bool = false) {
        let key = coalescingKey.map { coalescingKeys.key(for: $0) }
        let frame = OutboundFrame(text)
        var skipped: [ConnectionID] = []
        defer {
            if let coalescingKey, !skipped.isEmpty {
                transport.delegate?.transport(transport, didSkipMessageBefore: coalescingKey, for: skipped)
            }
        }
        for id in ids {
            guard let connection = connections[id], let session = connection.webSocket, !session.isClosing else {
                continue
            }
            switch session.outbound.enqueue(frame, key: key, dependsOnPrevious: dependsOnPrevious) {
            case .appended where session.outbound.count == 1:
                requestWritable(connection, session)
            case .chainBroken:
                skipped.append(id)
            case .appended, .replaced, .dropped:
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
        requestWritable(connection, session)
    }

    /// Closes at once: drops what is queued and sends the close frame in the next writeable callback,
    /// then waits a few seconds for the client's.
    func closeGracefully(_ connection: Connection, _ frame: CloseFrame) {
        guard let session = connection.webSocket, session.closing == .open else { return }
        session.outbound.removeAll()
        session.pendingClose = frame
        requestWritable(connection, session)
    }

    /// Drops a connection at the TCP level, without a close frame: for a peer that stopped reading, whose
    /// buffers are full, a close frame could never reach it anyway. lws closes it on its next service.
    func drop(_ connection: Connection) {
        if let session = connection.webSocket {
            session.discardOutput()
            session.closing = .shutDown
            session.watchdog.madeProgress()
        }
        lws_set_timeout(connection.wsi, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
    }

    /// Housekeeping for one open WebSocket: ping it after the ping interval of silence, hang up on it
    /// after the hang-up timeout.
    func checkLiveness(_ connection: Connection, _ session: WebSocketSession, now: ContinuousClock.Instant) {
        guard session.closing == .open else { return }
        let silence = now - session.lastHeard
        if silence >= configuration.hangupTimeout {
            logger.info("dropping websocket: no answer to pings", metadata: ["sb.conn": "\(connection.id)"])
            drop(connection)
        } else if silence >= configuration.pingInterval, !session.pinged {
            session.pinged = true
            session.ping = OutboundFrame(opcode: 9, [])
            requestWritable(connection, session)
        }
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
}
