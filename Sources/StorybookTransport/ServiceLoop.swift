import CLibWebSockets
import Logging

/// Everything that runs on the transport's loop thread: the lws context, the connection records and the
/// callback handlers.
///
/// Created, used and destroyed on that one thread and never handed to another, so it needs no locks.
/// lws finds it from any callback through `lws_context_user()` (see `serviceLoopCallback`). Handlers only
/// move bytes between lws and the records and hand complete requests and messages to the delegate;
/// they do no application work.
final class ServiceLoop {
    enum Lifecycle: Equatable {
        case serving
        /// `shutdown()` was called: WebSockets are closing with 1001; stop once they are gone or at the
        /// deadline.
        case draining(deadline: ContinuousClock.Instant)
        /// Leave the service loop.
        case finished
    }

    let transport: Transport
    let configuration: TransportConfiguration
    /// `configuration.extraHeaderNames` as lws looks them up.
    let extraHeaderNames: ExtraHeaderNames
    let logger: Logger
    let resources: ContextResources
    let scratch = ScratchBuffer(capacity: HTTPResponseWriter.chunkSize + 4096)
    /// Where a request's `Host` is copied once, for both the transport's check and the delegate's rules.
    let hostScratch = ScratchBuffer(capacity: 256)
    let clock = ContinuousClock()
    /// How often housekeeping runs: often enough to notice a stalled client within about a quarter of
    /// the slow-client timeout.
    let housekeepingInterval: Duration
    /// How many housekeeping rounds without write progress make a WebSocket stalled: the slow-client
    /// timeout, plus the round in which the wait started.
    let stalledAfterRounds: Int
    /// Counts housekeeping runs; the clock of the write watchdogs.
    @exclusivity(unchecked) var housekeepingRound = 0
    /// Fires `runHousekeeping` (slow-client checks, the shutdown deadline).
    private(set) lazy var housekeepingTimer = LoopTimer { [unowned self] in runHousekeeping() }
    var context: OpaquePointer?
    var vhost: OpaquePointer?
    @exclusivity(unchecked) var connections = ConnectionRegistry()
    /// The coalescing keys of `send` commands, as numbers for the per-connection queues.
    var coalescingKeys = CoalescingKey.Table()
    var lifecycle = Lifecycle.serving
    /// Set while an accepted upgrade's socket is being adopted: the raw connection lws creates for it
    /// (synchronously, in `lws_adopt_descriptor_vhost`) is that WebSocket.
    var pendingTakeover: WebSocketTakeover?

    private init(transport: Transport) {
        self.transport = transport
        self.configuration = transport.configuration
        self.extraHeaderNames = ExtraHeaderNames(transport.configuration.extraHeaderNames)
        self.logger = transport.logger
        self.resources = ContextResources(
            protocolName: transport.configuration.webSocketSubprotocol,
            rxBufferSize: 16 * 1024
        )
        self.housekeepingInterval = min(max(transport.configuration.slowClientTimeout / 4, .milliseconds(20)), .seconds(1))
        self.stalledAfterRounds = WriteWatchdog.rounds(for: transport.configuration.slowClientTimeout, interval: housekeepingInterval)
    }

    /// The body of the loop thread: create the context, report the port (or the failure) through
    /// `gate`, serve until shut down, destroy the context.
    static func run(transport: Transport, gate: StartupGate) {
        let loop = ServiceLoop(transport: transport)
        let port: Int
        let context: OpaquePointer
        do {
            (context, port) = try loop.createContext()
        } catch {
            loop.destroyContext()
            transport.shared.withLock { $0.phase = .stopped }
            gate.publish(.failure(error))
            return
        }
        let waker = LoopWaker(context: context)
        let shutdownRequested = transport.shared.withLock { state in
            state.phase = .running(waker)
            return state.shutdownRequested
        }
        gate.publish(.success(port))
        if shutdownRequested {
            loop.beginShutdown()
        }
        loop.serve()
        transport.shared.withLock { state in
            state.phase = .stopped
            state.mailbox.removeAll()
        }
        waker.waitForReservedWakeUps()
        loop.destroyContext()
        loop.logger.debug("transport loop ended")
    }

    /// Dispatches one lws callback.
    func handle(
        wsi: OpaquePointer,
        reason: lws_callback_reasons,
        user: UnsafeMutableRawPointer?,
        input: UnsafeMutableRawPointer?,
        length: Int
    ) -> Int32 {
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            drainMailbox()
            return 0
        case LWS_CALLBACK_HTTP_CONFIRM_UPGRADE:
            return confirmUpgrade(wsi, kind: input)
        case LWS_CALLBACK_HTTP:
            return beginRequest(wsi)
        case LWS_CALLBACK_HTTP_BODY:
            return receiveBody(wsi, UnsafeRawBufferPointer(start: input, count: length))
        case LWS_CALLBACK_HTTP_BODY_COMPLETION:
            return completeBody(wsi)
        case LWS_CALLBACK_HTTP_WRITEABLE:
            return continueResponse(wsi)
        case LWS_CALLBACK_RAW_ADOPT:
            if let takeover = pendingTakeover {
                pendingTakeover = nil
                return openWebSocket(wsi, takeover)
            }
            // A method lws does not know, or CONNECT (this is no proxy): a raw socket, answered 405.
            return answerRawConnection(wsi)
        case LWS_CALLBACK_RAW_RX:
            guard let connection = connections.existing(wsi), let session = connection.webSocket else {
                return 0  // the rest of a request that is answered already
            }
            return receiveFrames(connection, session, UnsafeRawBufferPointer(start: input, count: length))
        case LWS_CALLBACK_RAW_WRITEABLE:
            guard let connection = connections.existing(wsi), let session = connection.webSocket else {
                return finishRawConnection(wsi)
            }
            return writeFrames(connection, session)
        case LWS_CALLBACK_CLOSED, LWS_CALLBACK_CLOSED_HTTP, LWS_CALLBACK_RAW_CLOSE, LWS_CALLBACK_WSI_DESTROY:
            forget(wsi)
            return 0
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    /// Drops the record of a connection lws is closing; tells the delegate when it was an open WebSocket.
    private func forget(_ wsi: OpaquePointer) {
        guard let connection = connections.remove(wsi) else { return }
        reportClosed(connection)
        if connection.webSocket != nil {
            finishDrainingIfDone()
        }
    }

    /// Tells the delegate, once, that a WebSocket is closed: when its closing handshake is over or it
    /// failed (its TCP connection may take a few seconds more to end), or when lws closes it.
    func reportClosed(_ connection: Connection) {
        guard let session = connection.webSocket, !session.isClosed else { return }
        session.isClosed = true
        logger.debug("websocket closed", metadata: ["sb.conn": "\(connection.id)"])
        transport.delegate?.transport(transport, didClose: connection.id)
    }
}
