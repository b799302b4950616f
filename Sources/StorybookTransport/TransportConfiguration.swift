/// Where the transport listens and the limits it enforces.
package struct TransportConfiguration: Sendable {
    /// The address to listen on. `"127.0.0.1"` (the default) and `"localhost"` listen on the IPv4
    /// loopback only; any other IPv4 literal (`"0.0.0.0"` for every interface) listens on IPv4 only;
    /// `"::"` listens on every address, IPv6 and IPv4; `"::1"` on the IPv6 loopback. Anything else is
    /// handed to libwebsockets as an interface name (such as `"lo"`) or address.
    package var host: String
    /// The TCP port; 0 takes any free port (``Transport/start()`` returns the one bound).
    package var port: Int
    /// The largest HTTP request body accepted; larger ones are answered 413 `too-large`, checked against
    /// `Content-Length` before the body is read and against the bytes actually received.
    package var maxBodyBytes: Int
    /// The largest request head answered: a head whose request target and headers come to more is
    /// answered 431 `headers-too-large` (and the connection closed). libwebsockets gets room for twice
    /// this; a head that does not fit even there is dropped by it unanswered (docs/protocol.md).
    /// Headers lws does not know by name and that are not in `extraHeaderNames` count only against
    /// lws' room: lws 4.1 cannot list them.
    package var maxHeadBytes: Int
    /// The largest WebSocket message accepted, counted after reassembling fragments; a larger one closes
    /// the connection with 1009 (message too big).
    package var maxMessageBytes: Int
    /// How long a WebSocket may be silent before the server pings it.
    package var pingInterval: Duration
    /// How long a WebSocket may go without any sign of life (a pong counts) before it is hung up.
    /// Must be longer than `pingInterval`.
    package var hangupTimeout: Duration
    /// How long the application may take to answer a complete HTTP request (from `didReceive` to
    /// `respond`) before the connection is dropped. Whole seconds, rounded up.
    package var responseTimeout: Duration
    /// A WebSocket whose pending output makes no progress for this long is dropped at the TCP level (no
    /// close frame could get through its full socket), so one stuck reader never holds up the others.
    package var slowClientTimeout: Duration
    /// The most messages that may wait to be written to one WebSocket. Messages sent with a coalescing
    /// key replace their waiting predecessor (or, depending on it, are not queued: ``OutboundQueue``)
    /// and never add to the count; a connection that would go over the bound is closed (1008).
    package var maxQueuedMessages: Int
    /// The only path on which WebSocket upgrades are accepted; upgrades elsewhere are answered 404.
    package var webSocketPath: String
    /// The WebSocket subprotocol selected when a client offers it. Clients may also offer nothing.
    package var webSocketSubprotocol: String
    /// On ``Transport/shutdown()``, how long open WebSockets get to acknowledge the 1001 close before
    /// the loop stops anyway.
    package var shutdownGracePeriod: Duration
    /// Request headers libwebsockets does not know by name (it knows about a hundred common ones) that
    /// should still be copied into ``HTTPRequest/headers`` and ``UpgradeRequest/headers``, lowercased,
    /// such as `"x-request-id"`.
    package var extraHeaderNames: [String]

    package init(
        host: String = "127.0.0.1",
        port: Int = 6006,
        maxBodyBytes: Int = 1 << 20,
        maxHeadBytes: Int = 8192,
        maxMessageBytes: Int = 1 << 20,
        pingInterval: Duration = .seconds(30),
        hangupTimeout: Duration = .seconds(60),
        responseTimeout: Duration = .seconds(30),
        slowClientTimeout: Duration = .seconds(10),
        maxQueuedMessages: Int = 256,
        webSocketPath: String = "/ws",
        webSocketSubprotocol: String = "storybook.v1",
        shutdownGracePeriod: Duration = .seconds(2),
        extraHeaderNames: [String] = []
    ) {
        self.host = host
        self.port = port
        self.maxBodyBytes = maxBodyBytes
        self.maxHeadBytes = maxHeadBytes
        self.maxMessageBytes = maxMessageBytes
        self.pingInterval = pingInterval
        self.hangupTimeout = hangupTimeout
        self.responseTimeout = responseTimeout
        self.slowClientTimeout = slowClientTimeout
        self.maxQueuedMessages = maxQueuedMessages
        self.webSocketPath = webSocketPath
        self.webSocketSubprotocol = webSocketSubprotocol
        self.shutdownGracePeriod = shutdownGracePeriod
        self.extraHeaderNames = extraHeaderNames
    }
}
