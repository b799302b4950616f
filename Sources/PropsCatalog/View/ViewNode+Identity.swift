extension ViewNode {
    /// The address of the box an indirect case is stored in (the same for a node and its copies, and
    /// never another node's while the node is held), nil where a node is not laid out as one word.
    var boxAddress: UInt? {
        MemoryLayout<ViewNode>.size == MemoryLayout<UInt>.size ? unsafeBitCast(self, to: UInt.self) : nil
    }

    /// Whether this node is the very same value as `other`: the same storage (an indirect enum's box,
    /// never changed once made), so equal without being compared. False does not mean different.
    func isIdentical(to other: ViewNode) -> Bool {
        guard let box = boxAddress else { return false }
        return box == other.boxAddress
    }
}
