import CLibWebSockets
import Logging

/// Everything of a ``WebSocketClient`` that runs on its loop thread: the lws context, the one
/// connection, its outgoing queue and the reassembly of incoming messages. Created, used and destroyed
/// on that thread only; lws finds it through `lws_context_user()` (see `clientLoopCallback`).
final class ClientLoop {
    private let client: WebSocketClient
    private let resources: ContextResources
    private var context: OpaquePointer?
    private var finished = false
    /// The current connection: its attempt number, lws handle once lws made one, and state.
    private var attempt: UInt64 = 0
    private var wsi: OpaquePointer?
    private var isOpen = false
    private var closeRequested = false
    private var outgoing: [[UInt8]] = []
    private var assembler: MessageAssembler
    /// C strings of the current attempt's target, alive while lws may read them.
    private var targetStrings = CStringPool()
    /// True inside `lws_client_connect_via_info`, which may already call back about the new connection.
    private var connecting = false
    /// Why the connection failed inside `lws_client_connect_via_info`, reported once it returned.
    private var failedWhileConnecting: String?

    private init(client: WebSocketClient) {
        self.client = client
        self.resources = ContextResources(protocolName: "storybook-client", rxBufferSize: 16 * 1024)
        resources.protocols[0].callback = clientLoopCallback  // this loop's callback, not the server's
        self.assembler = MessageAssembler(limit: client.maxMessageBytes)
    }

    /// The body of the loop thread.
    static func run(client: WebSocketClient, gate: StartupGate) {
        let loop = ClientLoop(client: client)
        sb_lws_set_log_level(LLL_ERR)
        var info = lws_context_creation_info()
        info.port = CONTEXT_PORT_NO_LISTEN
        info.protocols = UnsafePointer(loop.resources.protocols)
        info.user = Unmanaged.passUnretained(loop).toOpaque()
        guard let context = lws_create_context(&info) else {
            client.shared.withLock { $0.phase = .stopped }
            gate.publish(.failure(.contextCreationFailed))
            return
        }
        loop.context = context
        let waker = LoopWaker(context: context)
        client.shared.withLock { $0.phase = .running(waker) }
        gate.publish(.success(0))
        loop.drainMailbox()  // commands posted while starting
        while !loop.finished {
            if lws_service(context, 0) < 0 { break }
        }
        client.shared.withLock { state in
            state.phase = .stopped
            state.mailbox.removeAll()
        }
        waker.waitForReservedWakeUps()
        lws_context_destroy(context)
        loop.context = nil
    }

    func handle(wsi: OpaquePointer, reason: lws_callback_reasons, user: UnsafeMutableRawPointer?, input: UnsafeMutableRawPointer?, length: Int) -> Int32 {
        switch reason {
        case LWS_CALLBACK_EVENT_WAIT_CANCELLED:
            drainMailbox()
            return 0
        case LWS_CALLBACK_CLIENT_ESTABLISHED:
            guard wsi == self.wsi else { return -1 }
            isOpen = true
            emit(.opened(attempt: attempt))
            if !outgoing.isEmpty || closeRequested { lws_callback_on_writable(wsi) }
            return 0
        case LWS_CALLBACK_CLIENT_RECEIVE:
            guard wsi == self.wsi else { return -1 }
            let piece = UnsafeRawBufferPointer(start: input, count: length)
            switch assembler.append(piece, isFinal: lws_is_final_fragment(wsi) != 0, isBinary: lws_frame_is_binary(wsi) != 0) {
            case .partial: return 0
            case .message(let bytes): emit(.message(attempt: attempt, bytes)); return 0
            case .tooLarge, .binary: return -1
            }
        case LWS_CALLBACK_CLIENT_WRITEABLE:
            guard wsi == self.wsi else {
                // A connection being replaced: say goodbye properly.
                lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, nil, 0)
                return -1
            }
            return writeNext(wsi)
        case LWS_CALLBACK_CLIENT_CONNECTION_ERROR:
            let detail = input.map { String(cString: $0.assumingMemoryBound(to: CChar.self)) } ?? "connection failed"
            if connecting, self.wsi == nil {
                failedWhileConnecting = detail
                return 0
            }
            connectionEnded(wsi, reason: detail)
            return 0
        case LWS_CALLBACK_CLIENT_CLOSED:
            connectionEnded(wsi, reason: "closed")
            return 0
        case LWS_CALLBACK_WSI_DESTROY:
            connectionEnded(wsi, reason: "closed")
            return 0
        default:
            return lws_callback_http_dummy(wsi, reason, user, input, length)
        }
    }

    private func emit(_ event: WebSocketClientEvent) {
        client.events(event)
    }

    private func connectionEnded(_ wsi: OpaquePointer, reason: String) {
        guard wsi == self.wsi else { return }
        self.wsi = nil
        isOpen = false
        outgoing = []
        assembler = MessageAssembler(limit: client.maxMessageBytes)
        emit(.closed(attempt: attempt, reason: reason))
    }

    /// Writes one queued message (or the close), then asks for the next writeable callback.
    private func writeNext(_ wsi: OpaquePointer) -> Int32 {
        if outgoing.isEmpty {
            guard closeRequested else { return 0 }
            lws_close_reason(wsi, LWS_CLOSE_STATUS_NORMAL, nil, 0)
            return -1
        }
        let message = outgoing.removeFirst()
        let pre = Int(sb_lws_pre())
        var frame = [UInt8](repeating: 0, count: pre + message.count)
        frame.replaceSubrange(pre..<frame.count, with: message)
        let written = frame.withUnsafeMutableBytes { buffer in
            lws_write(wsi, buffer.baseAddress!.advanced(by: pre).assumingMemoryBound(to: UInt8.self), message.count, LWS_WRITE_TEXT)
        }
        guard Int(written) == message.count else { return -1 }
        if !outgoing.isEmpty || closeRequested { lws_callback_on_writable(wsi) }
        return 0
    }

    private func drainMailbox() {
        let commands = client.shared.withLock { state -> [ClientSharedState.Command] in
            defer { state.mailbox = [] }
            return state.mailbox
        }
        for command in commands {
            switch command {
            case .connect(let number, let target):
                closeCurrent()
                open(number, target)
            case .send(let number, let text):
                guard number == attempt, wsi != nil, !closeRequested else { continue }
                outgoing.append(text)
                if isOpen, let wsi { lws_callback_on_writable(wsi) }
            case .disconnect:
                closeCurrent()
            case .shutdown:
                closeCurrent()
                finished = true
            }
        }
    }

    /// Asks the current connection to close; it stays current until lws reports it gone, but its
    /// events are no longer the caller's (the attempt number moved on).
    private func closeCurrent() {
        guard let wsi else { return }
        closeRequested = true
        outgoing = []
        if isOpen {
            lws_callback_on_writable(wsi)
        } else {
            lws_set_timeout(wsi, PENDING_TIMEOUT_CLOSE_SEND, LWS_TO_KILL_ASYNC)
        }
        self.wsi = nil
        isOpen = false
    }

    private func open(_ number: UInt64, _ target: WebSocketClientTarget) {
        guard let context else { return }
        attempt = number
        closeRequested = false
        outgoing = []
        let strings = CStringPool()
        targetStrings = strings
        var info = lws_client_connect_info()
        info.context = context
        info.address = strings.cString(target.host)
        info.port = Int32(target.port)
        info.path = strings.cString(target.path)
        info.host = strings.cString("\(target.host):\(target.port)")
        info.protocol = target.subprotocol.map(strings.cString)
        info.local_protocol_name = strings.cString("storybook-client")
        info.ietf_version_or_minus_one = -1
        wsi = nil
        failedWhileConnecting = nil
        connecting = true
        let made = lws_client_connect_via_info(&info)
        connecting = false
        if let failure = failedWhileConnecting {
            wsi = nil
            emit(.closed(attempt: number, reason: failure))
        } else if let made {
            wsi = made
        } else {
            emit(.closed(attempt: number, reason: "cannot connect to \(target.host):\(target.port)"))
        }
    }
}

/// The C callback of the client's lws protocol; finds its ``ClientLoop`` through the context's user pointer.
func clientLoopCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    guard let wsi, let context = lws_get_context(wsi), let owner = lws_context_user(context) else { return 0 }
    return Unmanaged<ClientLoop>.fromOpaque(owner).takeUnretainedValue().handle(wsi: wsi, reason: reason, user: user, input: input, length: length)
}
