/// A value of any type kept in memory laid out as its type, so that reading it back is a copy and
/// its bytes are compared where they are (`SignificantBytes.value(_:matchesValueAt:)`). Held here,
/// the buffers those bytes point to stay alive and are never uniquely referenced, so equal bytes
/// keep meaning the same value. What the memos remember (`RoundTripTable`, `RowMemo`) is one.
class HeldValue {
    let memory: UnsafeMutableRawPointer
    private let destroy: (UnsafeMutableRawPointer) -> Void

    init<T>(_ value: T) {
        memory = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
        memory.initializeMemory(as: T.self, repeating: value, count: 1)
        destroy = { $0.assumingMemoryBound(to: T.self).deinitialize(count: 1) }
    }

    /// The value, which is a `T` (whoever made it knows its type).
    func value<T>(as type: T.Type) -> T {
        memory.assumingMemoryBound(to: T.self).pointee
    }

    deinit {
        destroy(memory)
        memory.deallocate()
    }
}
