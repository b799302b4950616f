/// One WebSocket frame from the server, laid out for one write: the header (RFC 6455 5.2, unmasked, as
/// servers send) followed by the payload, in one buffer.
///
/// Built once per `send` on the loop thread and shared by the queue of every connection it goes to, so
/// a broadcast costs one copy and one header, not one per subscriber. Immutable once built.
final class OutboundFrame {
    /// The frame's size on the wire, header included.
    let count: Int
    /// The frame's first byte.
    let bytes: UnsafeMutablePointer<UInt8>

    /// A final frame of `opcode` (1 text, 8 close, 9 ping, 10 pong) carrying `payload`.
    init(opcode: UInt8 = 1, _ payload: [UInt8]) {
        var header: [UInt8] = [0x80 | opcode]
        switch payload.count {
        case ..<126:
            header.append(UInt8(payload.count))
        case ...0xFFFF:
            header += [126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            header.append(127)
            header += (0..<8).reversed().map { UInt8(truncatingIfNeeded: UInt64(payload.count) >> UInt64($0 * 8)) }
        }
        count = header.count + payload.count
        bytes = .allocate(capacity: count)
        let afterHeader = UnsafeMutableBufferPointer(start: bytes, count: count).initialize(fromContentsOf: header)
        _ = UnsafeMutableBufferPointer(rebasing: UnsafeMutableBufferPointer(start: bytes, count: count)[afterHeader...])
            .initialize(fromContentsOf: payload)
    }

    /// A close frame with its code and reason.
    convenience init(close: CloseFrame) {
        self.init(opcode: 8, [UInt8(close.code >> 8), UInt8(close.code & 0xFF)] + close.reason)
    }

    deinit {
        bytes.deinitialize(count: count)
        bytes.deallocate()
    }
}
