/// One open WebSocket: the reader of what comes in, the queues of what goes out, where its closing
/// stands. Loop-thread only.
///
/// A class, so the loop mutates the one record in place on every delivery instead of copying it out of
/// its connection and back. The properties every delivery reads or changes are
/// `@exclusivity(unchecked)` (as are `Connection.webSocket` and `ServiceLoop`'s registry and
/// housekeeping round): only the loop thread touches them, and no access stays open across a call to
/// the delegate or to an lws function that can run the service callback again, so two accesses never
/// overlap and the runtime check (a few dozen instructions each, several times per delivery) is left
/// out. Keep it so: a mutating method of `OutboundQueue`, `WriteWatchdog` or `ConnectionRegistry`
/// must not call either.
final class WebSocketSession {
    /// How far the closing handshake has come (RFC 6455 7).
    enum Closing: Equatable {
        case open
        /// The server's close frame is queued or sent; the client's close is awaited (for a few seconds).
        case awaitingPeer
        /// Nothing more is read: once what is queued is out, the server shuts down its side of the TCP
        /// connection and lets the client close (RFC 6455 7.1.1: the server closes first).
        case finishing
        /// The server's side is shut down; what still comes in is discarded until the client closes. Also
        /// a connection dropped without a close frame, which lws ends on its next service.
        case shutDown
    }

    let upgrade: UpgradeRequest
    var reader: WebSocketReader
    @exclusivity(unchecked) var outbound: OutboundQueue<OutboundFrame, CoalescingKey>
    /// The pong answering the latest ping, written before the next queued message. One at most: a
    /// client that floods pings gets one pong for the pings of a read (RFC 6455 5.5.3 allows answering
    /// only the latest), and its pings cannot grow the server's memory.
    @exclusivity(unchecked) var pong: OutboundFrame?
    /// The server's keep-alive ping, when one is due.
    @exclusivity(unchecked) var ping: OutboundFrame?
    /// The last frame of a finished connection (the echo of the client's close, or the close failing
    /// the connection), once nothing else will be written.
    @exclusivity(unchecked) var finalClose: OutboundFrame?
    @exclusivity(unchecked) var watchdog = WriteWatchdog()
    /// The close to send once `outbound` is written (at once when the transport empties the queue
    /// itself, for shutdown or overflow).
    @exclusivity(unchecked) var pendingClose: CloseFrame?
    @exclusivity(unchecked) var closing = Closing.open
    /// The delegate was told the WebSocket is closed.
    var isClosed = false
    /// When the client last sent anything: a ping goes out after the ping interval of silence, and the
    /// connection is hung up after the hang-up timeout.
    var lastHeard: ContinuousClock.Instant
    /// A ping has been sent since the client was last heard from.
    var pinged = false

    init(upgrade: UpgradeRequest, maxMessageBytes: Int, maxQueuedMessages: Int, now: ContinuousClock.Instant) {
        self.upgrade = upgrade
        self.reader = WebSocketReader(limit: maxMessageBytes)
        self.outbound = OutboundQueue(capacity: maxQueuedMessages)
        self.lastHeard = now
    }

    /// A close was requested or is under way: messages sent from now on are dropped.
    var isClosing: Bool {
        pendingClose != nil || closing != .open
    }

    /// Forgets everything waiting to be written.
    func discardOutput() {
        outbound.removeAll()
        pendingClose = nil
        pong = nil
        ping = nil
        finalClose = nil
    }

    /// Whether anything waits to be written.
    var hasOutput: Bool {
        pong != nil || ping != nil || finalClose != nil || !outbound.isEmpty
    }
}
