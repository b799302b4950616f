import CLibWebSockets

/// A text message laid out for `lws_write`: `LWS_PRE` bytes of headroom (where libwebsockets writes the
/// frame header in place), then the payload.
///
/// Built once per `send` on the loop thread and shared by the queue of every connection it goes to, so
/// a broadcast costs one copy, not one per subscriber. Loop-thread only (lws writes into the headroom).
final class OutboundFrame {
    let count: Int
    private let storage: UnsafeMutableRawPointer
    private static let headroom = Int(sb_lws_pre())

    init(_ bytes: [UInt8]) {
        count = bytes.count
        storage = .allocate(byteCount: Self.headroom + max(bytes.count, 1), alignment: 16)
        bytes.withUnsafeBytes { source in
            if let base = source.baseAddress {
                (storage + Self.headroom).copyMemory(from: base, byteCount: source.count)
            }
        }
    }

    deinit {
        storage.deallocate()
    }

    /// The first payload byte, with `LWS_PRE` writable bytes before it.
    var payload: UnsafeMutablePointer<UInt8> {
        (storage + Self.headroom).assumingMemoryBound(to: UInt8.self)
    }
}
