/// Values of one type side by side, held: `RowMemo` compares each element of a list with the one
/// at its position in the last render here, where they lie in order, instead of in each row's own
/// memory (a cache line of its own per row). Held here, the buffers their bytes point to stay alive
/// and are never uniquely referenced, so equal bytes keep meaning the same value (`HeldValue`).
final class HeldElements {
    private var base: UnsafeMutableRawPointer
    private var capacity: Int
    /// How many elements are held, at positions `0..<count`.
    private(set) var count = 0
    private let stride: Int
    private let alignment: Int
    private let initialize: (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    private let assign: (UnsafeMutableRawPointer, UnsafeRawPointer) -> Void
    private let deinitialize: (UnsafeMutableRawPointer, Int) -> Void

    init<Element>(of type: Element.Type) {
        stride = MemoryLayout<Element>.stride
        alignment = MemoryLayout<Element>.alignment
        capacity = 0
        base = UnsafeMutableRawPointer.allocate(byteCount: 0, alignment: alignment)
        initialize = { $0.initializeMemory(as: Element.self, repeating: $1.assumingMemoryBound(to: Element.self).pointee, count: 1) }
        assign = { $0.assumingMemoryBound(to: Element.self).pointee = $1.assumingMemoryBound(to: Element.self).pointee }
        deinitialize = { $0.assumingMemoryBound(to: Element.self).deinitialize(count: $1) }
    }

    /// Where the element at `position` lies (`position < count`).
    func address(_ position: Int) -> UnsafeRawPointer {
        UnsafeRawPointer(base + position * stride)
    }

    /// Holds a copy of the element at `element` at `position`, which is at most `count`.
    func set(_ position: Int, from element: UnsafeRawPointer) {
        precondition(position <= count, "HeldElements: a gap at \(position) of \(count)")
        if position < count {
            assign(base + position * stride, element)
            return
        }
        if count == capacity { grow() }
        initialize(base + position * stride, element)
        count += 1
    }

    /// Lets go of the elements from `newCount` on.
    func truncate(to newCount: Int) {
        guard newCount < count else { return }
        deinitialize(base + newCount * stride, count - newCount)
        count = newCount
    }

    private func grow() {
        let newCapacity = max(16, capacity * 2)
        let grown = UnsafeMutableRawPointer.allocate(byteCount: newCapacity * stride, alignment: alignment)
        // Swift values move bit for bit: the held elements change place, not owners.
        grown.copyMemory(from: base, byteCount: count * stride)
        base.deallocate()
        base = grown
        capacity = newCapacity
    }

    deinit {
        deinitialize(base, count)
        base.deallocate()
    }
}
