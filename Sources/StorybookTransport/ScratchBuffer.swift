import CLibWebSockets

/// The loop's reusable buffer for HTTP output: `LWS_PRE` bytes of headroom, then room for a response head
/// and a slice of body. Grows on demand, never shrinks. Loop-thread only.
final class ScratchBuffer {
    private static let headroom = Int(sb_lws_pre())
    private var storage: UnsafeMutableRawPointer
    private(set) var capacity: Int

    init(capacity: Int) {
        self.capacity = capacity
        storage = .allocate(byteCount: Self.headroom + capacity, alignment: 16)
    }

    deinit {
        storage.deallocate()
    }

    /// Makes room for at least `count` bytes after the headroom (the contents are not kept).
    func reserve(_ count: Int) {
        guard count > capacity else { return }
        storage.deallocate()
        capacity = max(count, capacity * 2)
        storage = .allocate(byteCount: Self.headroom + capacity, alignment: 16)
    }

    /// Where output starts; `LWS_PRE` writable bytes precede it.
    var start: UnsafeMutablePointer<UInt8> {
        (storage + Self.headroom).assumingMemoryBound(to: UInt8.self)
    }

    /// One past the last usable byte.
    var end: UnsafeMutablePointer<UInt8> {
        start + capacity
    }
}
