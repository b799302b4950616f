package import Logging
import Synchronization

/// The HTTP and WebSocket server: one libwebsockets context served by one dedicated OS thread.
///
/// ## Threading
/// A single loop thread owns the lws context and every per-connection record (see `ServiceLoop`); no
/// other thread ever calls into lws, except `lws_cancel_service` to wake it. The delegate is called on
/// that thread and must hand work off at once. `respond`, `send` and `close` may be called from any
/// thread: they append a command to a mailbox and wake the loop, which drains the mailbox in
/// `LWS_CALLBACK_EVENT_WAIT_CANCELLED`. Connections are named by ``ConnectionID``, never by lws pointer;
/// commands for connections that have gone away are dropped.
///
/// ## Sendable
/// `configuration` and `logger` are immutable values and `delegate` is a weak reference to a `Sendable`
/// object; the only mutable state, the lifecycle and the mailbox, sits behind a `Mutex`. Nothing
/// loop-confined is stored here.
///
/// ## Lifecycle
/// `start()` once, `shutdown()` when done (it is idempotent); a transport cannot be restarted. The loop
/// thread keeps the transport alive until `shutdown()` has stopped it.
package final class Transport: Sendable {
    package let configuration: TransportConfiguration
    /// Held weakly: the delegate usually owns the transport. Without a delegate, requests are answered
    /// 503 and upgrades rejected.
    package weak let delegate: (any TransportDelegate)?
    package let logger: Logger
    let shared = Mutex(SharedState())

    package init(
        configuration: TransportConfiguration = TransportConfiguration(),
        delegate: any TransportDelegate,
        logger: Logger = Logger(label: "storybook.transport")
    ) {
        self.configuration = configuration
        self.delegate = delegate
        self.logger = logger
    }

    /// Starts the loop thread and returns once the server listens, with the bound port (useful with
    /// port 0).
    /// - Throws: ``TransportError/cannotListen(host:port:)`` when the address cannot be bound (port in
    ///   use, address not local), ``TransportError/alreadyStarted`` on a second call, and others for
    ///   invalid configurations or lws failures.
    package func start() throws(TransportError) -> Int {
        try configuration.validate()
        let gate = StartupGate()
        try shared.withLock { (state) throws(TransportError) in
            guard case .idle = state.phase, !state.shutdownRequested else { throw .alreadyStarted }
            state.phase = .starting
            do throws(TransportError) {
                state.thread = try LoopThread.spawn(name: "storybook-lws") { [self] in
                    ServiceLoop.run(transport: self, gate: gate)
                }
            } catch {
                state.phase = .stopped
                throw error
            }
        }
        switch gate.wait() {
        case .success(let port):
            logger.debug("transport listening", metadata: ["sb.port": "\(port)", "sb.host": "\(configuration.host)"])
            return port
        case .failure(let error):
            joinLoopThread()
            throw error
        }
    }

    /// Answers the request that `didReceive` delivered for `id`. From any thread. Dropped if the
    /// connection closed meanwhile or is not waiting for an answer.
    package func respond(to id: ConnectionID, with response: HTTPResponse) {
        post(.respond(id, response))
    }

    /// Queues a text message (valid UTF-8) for a WebSocket. From any thread.
    ///
    /// With a `coalescingKey`, a message for the same connection and key that has not been written yet
    /// is replaced in place: a slow reader receives the latest state, never an ever-growing backlog.
    package func send(_ text: [UInt8], to id: ConnectionID, coalescingKey: String? = nil) {
        post(.send(text, to: [id], coalescingKey: coalescingKey, dependsOnPrevious: false))
    }

    /// Queues the same text message for several WebSockets; the loop builds one frame buffer shared by
    /// all of them.
    ///
    /// `dependsOnPrevious` marks a message that is not whole on its own (a state delta builds on the
    /// state before it): when a message with its key is still waiting for a connection, it is not
    /// queued there (it could not take that one's place), nor are later ones with the key until one
    /// that stands alone comes, and the delegate hears of it
    /// (``TransportDelegate/transport(_:didSkipMessageBefore:for:)``) to send one (``OutboundQueue``).
    package func send(_ text: [UInt8], to ids: [ConnectionID], coalescingKey: String? = nil, dependsOnPrevious: Bool = false) {
        guard !ids.isEmpty else { return }
        post(.send(text, to: ids, coalescingKey: coalescingKey, dependsOnPrevious: dependsOnPrevious))
    }

    /// Closes a WebSocket with `code` and `reason` (truncated to the 123 bytes a close frame allows) once
    /// the messages queued before it are written. From any thread.
    package func close(_ id: ConnectionID, code: UInt16 = 1000, reason: String = "") {
        post(.close(id, code: code, reason: reason))
    }

    /// Closes every WebSocket with 1001 (going away), waits up to the configured grace period for the
    /// clients to acknowledge, stops the loop, destroys the lws context and joins the loop thread.
    /// Idempotent; later calls return at once. Do not call it from a delegate method (on the loop thread
    /// it cannot wait for itself: it then only initiates the shutdown).
    package func shutdown() {
        post(.shutdown) { state in
            state.shutdownRequested = true
            if case .idle = state.phase {
                state.phase = .stopped
            }
        }
        joinLoopThread()
    }

    /// Queues `command` for the loop (after `prepare`, under the same lock) and wakes the loop once the
    /// mutex is released (``LoopWaker``).
    private func post(_ command: LoopCommand, prepare: (inout SharedState) -> Void = { _ in }) {
        let (accepted, waker) = shared.withLock { state in
            prepare(&state)
            return state.post(command)
        }
        waker?.wakeReserved()
        if !accepted, !command.isShutdown {
            logger.debug("transport not running; dropping command")
        }
    }

    /// Joins the loop thread unless someone already did (or is doing it).
    private func joinLoopThread() {
        guard let thread = shared.withLock({ state -> LoopThread? in
            defer { state.thread = nil }
            return state.thread
        }) else { return }
        if thread.isCurrent {
            logger.warning("Transport.shutdown() called on the loop thread: shutting down without waiting")
            thread.detach()
        } else {
            thread.join()
        }
    }
}
