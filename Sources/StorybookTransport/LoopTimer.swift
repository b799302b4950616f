import CLibWebSockets

/// A one-shot libwebsockets timer (`lws_sul_schedule`) that runs a Swift closure on the loop thread.
///
/// lws hands its timer callback nothing but the address of the `lws_sorted_usec_list_t`, so the timer's
/// memory is that struct followed by a pointer back to this object (C's container_of idiom). Loop-thread
/// only; cancel it before the context is destroyed.
final class LoopTimer {
    private static let ownerOffset = MemoryLayout<lws_sorted_usec_list_t>.stride
    private static let byteCount = ownerOffset + MemoryLayout<UnsafeMutableRawPointer>.size

    private let memory: UnsafeMutableRawPointer
    private let action: () -> Void

    init(_ action: @escaping () -> Void) {
        self.action = action
        memory = .allocate(byteCount: Self.byteCount, alignment: MemoryLayout<lws_sorted_usec_list_t>.alignment)
        memory.initializeMemory(as: UInt8.self, repeating: 0, count: Self.byteCount)
        memory.storeBytes(
            of: Unmanaged.passUnretained(self).toOpaque(),
            toByteOffset: Self.ownerOffset,
            as: UnsafeMutableRawPointer.self
        )
    }

    deinit {
        memory.deallocate()
    }

    private var sul: UnsafeMutablePointer<lws_sorted_usec_list_t> {
        memory.assumingMemoryBound(to: lws_sorted_usec_list_t.self)
    }

    /// Fires once, `delay` from now (rescheduling replaces a pending firing).
    func schedule(on context: OpaquePointer, after delay: Duration) {
        let (seconds, attoseconds) = delay.components
        let microseconds = seconds * 1_000_000 + attoseconds / 1_000_000_000_000
        lws_sul_schedule(context, 0, sul, loopTimerFired, lws_usec_t(max(microseconds, 1)))
    }

    /// Removes a pending firing.
    func cancel() {
        lws_sul_cancel(sul)
    }

    fileprivate static func fire(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>) {
        let owner = UnsafeMutableRawPointer(sul).load(fromByteOffset: ownerOffset, as: UnsafeMutableRawPointer.self)
        Unmanaged<LoopTimer>.fromOpaque(owner).takeUnretainedValue().action()
    }
}

/// The C callback of every `LoopTimer`.
private func loopTimerFired(_ sul: UnsafeMutablePointer<lws_sorted_usec_list_t>?) {
    guard let sul else { return }
    LoopTimer.fire(sul)
}
