package import Logging
import Synchronization

/// A WebSocket client over libwebsockets' client mode (`lws_client_connect_via_info`), for platforms
/// without a WebSocket in Foundation (Linux). One lws context without a listening port, served by one
/// dedicated OS thread, as in ``Transport``: only that thread touches lws; `connect`, `send` and
/// `close` post commands to a mutex-guarded mailbox and wake it with `lws_cancel_service`.
///
/// It holds at most one connection at a time, named by the attempt number `connect` returns; events
/// about an attempt that is no longer current are not delivered. It does not reconnect by itself:
/// the caller decides when (``WebSocketClientEvent/closed(attempt:reason:)``).
///
/// `Sendable`: the configuration is immutable and the mutable state sits behind a `Mutex`.
package final class WebSocketClient: Sendable {
    /// What the loop tells the caller, on the loop thread: hand it over and return at once.
    package typealias EventHandler = @Sendable (WebSocketClientEvent) -> Void

    let events: EventHandler
    package let logger: Logger
    let maxMessageBytes: Int
    let shared = Mutex(ClientSharedState())

    package init(maxMessageBytes: Int = 16 << 20, logger: Logger = Logger(label: "storybook.client"), events: @escaping EventHandler) {
        self.maxMessageBytes = maxMessageBytes
        self.logger = logger
        self.events = events
    }

    /// Starts the loop thread; returns once the lws context exists. Call once.
    package func start() throws(TransportError) {
        let gate = StartupGate()
        try shared.withLock { (state) throws(TransportError) in
            guard case .idle = state.phase else { throw .alreadyStarted }
            state.phase = .starting
            do throws(TransportError) {
                state.thread = try LoopThread.spawn(name: "storybook-wsc") { [self] in
                    ClientLoop.run(client: self, gate: gate)
                }
            } catch {
                state.phase = .stopped
                throw error
            }
        }
        if case .failure(let error) = gate.wait() {
            join()
            throw error
        }
    }

    /// Opens a connection to `target`, closing the current one; returns the attempt's number.
    @discardableResult
    package func connect(to target: WebSocketClientTarget) -> UInt64 {
        var attempt: UInt64 = 0
        post { state in
            state.attempt += 1
            attempt = state.attempt
            return .connect(state.attempt, target)
        }
        return attempt
    }

    /// Queues a text message for the current connection; dropped when it is not open.
    package func send(_ text: [UInt8]) {
        post { state in .send(state.attempt, text) }
    }

    /// Closes the current connection (code 1000) without opening another.
    package func disconnect() {
        post { state in
            state.attempt += 1
            return .disconnect
        }
    }

    /// Closes the connection, stops the loop and joins its thread. Idempotent; not from an event handler.
    package func shutdown() {
        post { state in
            state.attempt += 1
            if case .idle = state.phase { state.phase = .stopped }
            return .shutdown
        }
        join()
    }

    /// Queues the command `make` returns (under the lock, after what it changes) and wakes the loop
    /// once the lock is released (``LoopWaker``).
    private func post(_ make: (inout ClientSharedState) -> ClientSharedState.Command) {
        let waker = shared.withLock { state in state.post(make(&state)) }
        waker?.wakeReserved()
    }

    /// Whether `attempt` is still the current one (events of older attempts are dropped).
    package func isCurrent(_ attempt: UInt64) -> Bool {
        shared.withLock { $0.attempt == attempt }
    }

    private func join() {
        guard let thread = shared.withLock({ state -> LoopThread? in
            defer { state.thread = nil }
            return state.thread
        }) else { return }
        if thread.isCurrent { thread.detach() } else { thread.join() }
    }
}

/// Where a ``WebSocketClient`` connects: `ws://host:port/path` (no TLS).
package struct WebSocketClientTarget: Sendable, Equatable {
    package var host: String
    package var port: Int
    /// The path with its query, `/ws?token=...`.
    package var path: String
    /// The subprotocol offered, if any.
    package var subprotocol: String?

    package init(host: String, port: Int, path: String, subprotocol: String? = nil) {
        self.host = host
        self.port = port
        self.path = path
        self.subprotocol = subprotocol
    }
}

/// What happens to a ``WebSocketClient``'s connection.
package enum WebSocketClientEvent: Sendable, Equatable {
    /// The handshake completed.
    case opened(attempt: UInt64)
    /// One complete text message.
    case message(attempt: UInt64, [UInt8])
    /// The connection failed or closed (or the attempt could not connect at all).
    case closed(attempt: UInt64, reason: String)
}
