/// Reads what a client sends on an open WebSocket (RFC 6455 section 5), from the bytes as they arrive in
/// pieces of any size: parses and unmasks frames, reassembles text messages, answers control frames, and
/// holds the client to every rule a server must check, failing the connection with the close code that
/// names the breach.
///
/// The transport reads frames itself rather than through libwebsockets: lws 4.1 takes unmasked client
/// frames as if masked with the key 0 and tells no one (RFC 6455 5.1: the server must close).
struct WebSocketReader {
    /// What the bytes read so far amount to, in order.
    enum Event: Equatable {
        /// A complete text message, valid UTF-8.
        case message([UInt8])
        /// A ping: answer with a pong carrying this payload.
        case ping([UInt8])
        case pong
        /// The client's close frame: answer with a close frame carrying `echo` and read no more.
        case close(echo: [UInt8])
        /// The client broke the protocol: close with this frame and read no more.
        case fail(CloseFrame)
    }

    private enum Opcode: UInt8 {
        case continuation = 0, text = 1, binary = 2, close = 8, ping = 9, pong = 10

        var isControl: Bool { rawValue & 0x8 != 0 }
    }

    /// A frame whose header has been read, its payload still coming.
    private struct Frame {
        let opcode: Opcode
        let isFinal: Bool
        let mask: (UInt8, UInt8, UInt8, UInt8)
        var remaining: UInt64
        /// Payload bytes unmasked so far (where in the mask the next byte is).
        var offset = 0
    }

    /// The largest message accepted; a frame that would take a message past it fails with 1009 as soon
    /// as its header is read.
    let limit: Int
    private var header: [UInt8] = []
    private var frame: Frame?
    /// The text message being reassembled, once its first frame has arrived.
    private var message: [UInt8]?
    private var controlPayload: [UInt8] = []
    /// A close frame was read or the connection failed: whatever comes after is ignored.
    private(set) var isFinished = false

    init(limit: Int) {
        self.limit = limit
        header.reserveCapacity(14)
    }

    /// Reads the next bytes, reporting what they complete to `handle`.
    mutating func read(_ bytes: UnsafeRawBufferPointer, _ handle: (Event) -> Void) {
        var index = 0
        while index < bytes.count, !isFinished {
            if var current = frame {
                let take = Int(min(current.remaining, UInt64(bytes.count - index)))
                payload(UnsafeRawBufferPointer(rebasing: bytes[index..<index + take]), of: &current)
                index += take
                current.remaining -= UInt64(take)
                if current.remaining == 0 {
                    frame = nil
                    finish(current, handle)
                } else {
                    frame = current
                }
            } else {
                header.append(bytes[index])
                index += 1
                switch readHeaderByte() {
                case .incomplete:
                    break
                case .failed(let failure):
                    fail(failure, handle)
                case .started(let started) where started.remaining == 0:
                    finish(started, handle)
                case .started(let started):
                    frame = started
                }
            }
        }
    }

    private enum HeaderProgress {
        case incomplete
        case failed(CloseFrame)
        case started(Frame)
    }

    /// Takes the header byte just appended: the header is not complete yet, breaks a rule, or starts a
    /// frame.
    private mutating func readHeaderByte() -> HeaderProgress {
        switch header.count {
        case 1:
            guard header[0] & 0x70 == 0 else { return .failed(protocolError("reserved bits set without an extension")) }
            guard let opcode = Opcode(rawValue: header[0] & 0x0F) else { return .failed(protocolError("unknown opcode")) }
            if opcode.isControl, header[0] & 0x80 == 0 { return .failed(protocolError("fragmented control frame")) }
            return .incomplete
        case 2:
            guard header[1] & 0x80 != 0 else { return .failed(protocolError("client frames must be masked")) }
            if Opcode(rawValue: header[0] & 0x0F)!.isControl, header[1] & 0x7F > 125 {
                return .failed(protocolError("control frame over 125 bytes"))
            }
        default:
            break
        }
        let lengthBytes = switch header[1] & 0x7F { case 126: 2; case 127: 8; default: 0 }
        guard header.count == 2 + lengthBytes + 4 else { return .incomplete }

        var length = UInt64(header[1] & 0x7F)
        if lengthBytes > 0 {
            length = header[2..<2 + lengthBytes].reduce(0) { $0 << 8 | UInt64($1) }
            guard length >> 63 == 0 else { return .failed(protocolError("frame length with its top bit set")) }
        }
        let opcode = Opcode(rawValue: header[0] & 0x0F)!
        let key = 2 + lengthBytes
        let started = Frame(
            opcode: opcode,
            isFinal: header[0] & 0x80 != 0,
            mask: (header[key], header[key + 1], header[key + 2], header[key + 3]),
            remaining: length
        )
        header.removeAll(keepingCapacity: true)
        if let failure = begin(started) { return .failed(failure) }
        return .started(started)
    }

    /// Checks a data frame against the message in progress and the size limit before its payload is read.
    private mutating func begin(_ started: Frame) -> CloseFrame? {
        switch started.opcode {
        case .text:
            guard message == nil else { return protocolError("a new message before the last one ended") }
            message = []
        case .binary:
            return .unsupportedData
        case .continuation:
            guard message != nil else { return protocolError("a continuation frame without a message") }
        case .close, .ping, .pong:
            controlPayload.removeAll(keepingCapacity: true)
        }
        if !started.opcode.isControl, started.remaining > UInt64(limit - message!.count) {
            return .messageTooBig
        }
        return nil
    }

    /// Unmasks one piece of the current frame's payload into the message or the control payload.
    private mutating func payload(_ piece: UnsafeRawBufferPointer, of current: inout Frame) {
        let start = current.offset
        let mask = current.mask
        func unmask(_ target: inout [UInt8]) {
            let base = target.count
            target.append(contentsOf: piece)
            withUnsafeBytes(of: mask) { key in
                target.withUnsafeMutableBufferPointer { buffer in
                    for index in 0..<piece.count {
                        buffer[base + index] ^= key[(start + index) & 3]
                    }
                }
            }
        }
        if current.opcode.isControl {
            unmask(&controlPayload)
        } else {
            unmask(&message!)
        }
        current.offset = (start + piece.count) & 3
    }

    /// A frame's payload is complete.
    private mutating func finish(_ done: Frame, _ handle: (Event) -> Void) {
        switch done.opcode {
        case .text, .continuation, .binary:
            guard done.isFinal, let complete = message else { return }
            message = nil
            guard UTF8Validation.isValid(complete) else {
                return fail(CloseFrame(code: 1007, reason: "invalid UTF-8 in a text message"), handle)
            }
            handle(.message(complete))
        case .ping:
            handle(.ping(controlPayload))
        case .pong:
            handle(.pong)
        case .close:
            closeReceived(handle)
        }
    }

    /// The client's close frame: echo its code when a client may send it, else answer 1002.
    private mutating func closeReceived(_ handle: (Event) -> Void) {
        let payload = controlPayload
        guard !payload.isEmpty else {
            isFinished = true
            return handle(.close(echo: []))
        }
        guard payload.count >= 2 else { return fail(protocolError("close frame with a 1-byte payload"), handle) }
        let code = Int(payload[0]) << 8 | Int(payload[1])
        guard CloseFrame.isValidReceivedCode(code) else {
            return fail(protocolError("close code \(code) may not be sent"), handle)
        }
        guard UTF8Validation.isValid(Array(payload[2...])) else {
            return fail(CloseFrame(code: 1007, reason: "invalid UTF-8 in a close reason"), handle)
        }
        isFinished = true
        handle(.close(echo: payload))
    }

    private mutating func fail(_ frame: CloseFrame, _ handle: (Event) -> Void) {
        isFinished = true
        message = nil
        handle(.fail(frame))
    }

    private func protocolError(_ reason: String) -> CloseFrame {
        CloseFrame(code: UInt16(CloseFrame.protocolError), reason: reason)
    }
}
