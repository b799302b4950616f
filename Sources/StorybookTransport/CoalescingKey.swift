/// A coalescing key as the loop thread compares it: a small number standing for one key string.
///
/// `Transport.send` takes keys as strings; the loop turns the string into a `CoalescingKey` once per
/// `send` (see ``Table``), so the per-connection queues compare and hash plain integers, however many
/// connections a broadcast goes to. Loop-thread only.
struct CoalescingKey: Hashable {
    let raw: UInt32

    /// The numbers given out so far, by key string. Keys name what a message is the latest version of
    /// (`state:<story>`), so the table grows with the stories clients have watched, not with traffic;
    /// it is never pruned, since a queued message must keep the number its key maps to.
    struct Table {
        private var keys: [String: CoalescingKey] = [:]

        /// The key for `name`, the same for equal strings for as long as the table lives.
        mutating func key(for name: String) -> CoalescingKey {
            if let key = keys[name] { return key }
            let key = CoalescingKey(raw: UInt32(keys.count))
            keys[name] = key
            return key
        }

        var count: Int { keys.count }
    }
}
