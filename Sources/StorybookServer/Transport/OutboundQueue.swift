/// The messages waiting to be written to one WebSocket, oldest first.
///
/// A message sent with a coalescing key replaces, in place, a waiting message with the same key: a slow
/// reader gets the latest value of every key, in the order the keys first became pending, and the queue
/// never grows for them. Messages without a key simply queue; at `capacity` waiting messages a further
/// one is refused with ``EnqueueOutcome/overflow`` and the connection should be closed.
///
/// A message leaves the queue when it is handed to libwebsockets; from then on it can no longer be
/// replaced. Pure value type: no sockets, no clock, so it is tested on its own.
///
/// A queue usually holds zero or one message, so a key is looked for by comparing the few waiting
/// entries; an index by key is built only while more than ``linearSearchLimit`` entries wait.
struct OutboundQueue<Message, Key: Hashable> {
    enum EnqueueOutcome: Equatable {
        /// Added at the end.
        case appended
        /// Took the place of a waiting message with the same coalescing key.
        case replaced
        /// Refused: `capacity` messages are already waiting.
        case overflow
    }

    private struct Entry {
        var key: Key?
        var message: Message
    }

    /// Up to this many waiting entries, a key is found by comparing them in turn, without hashing.
    static var linearSearchLimit: Int { 16 }

    /// The most messages that may wait at once.
    let capacity: Int
    /// `storage[head...]` are the waiting entries; the prefix is consumed and compacted away lazily.
    private var storage: [Entry] = []
    private var head = 0
    /// Absolute sequence number of `storage[0]`; entries keep their sequence number across compaction.
    private var base = 0
    /// Sequence number of the waiting entry for each coalescing key, kept only while the queue is longer
    /// than `linearSearchLimit` (nil otherwise).
    private var sequenceByKey: [Key: Int]?

    init(capacity: Int) {
        precondition(capacity > 0, "an outbound queue needs room for at least one message")
        self.capacity = capacity
    }

    var count: Int { storage.count - head }
    var isEmpty: Bool { head == storage.count }
    /// Whether keys are currently found through the index rather than by comparison (for tests).
    var isIndexed: Bool { sequenceByKey != nil }

    /// Queues `message`, or replaces the waiting message with the same `key`.
    mutating func enqueue(_ message: Message, key: Key? = nil) -> EnqueueOutcome {
        if let key, let position = position(of: key) {
            storage[position].message = message
            return .replaced
        }
        guard count < capacity else { return .overflow }
        if let key, sequenceByKey != nil {
            sequenceByKey![key] = base + storage.count
        }
        storage.append(Entry(key: key, message: message))
        if sequenceByKey == nil, count > Self.linearSearchLimit {
            buildIndex()
        }
        return .appended
    }

    /// Takes the oldest waiting message.
    mutating func dequeue() -> Message? {
        guard head < storage.count else { return nil }
        let entry = storage[head]
        if let key = entry.key, sequenceByKey != nil {
            sequenceByKey![key] = nil
        }
        head += 1
        compactIfWorthwhile()
        return entry.message
    }

    /// Drops every waiting message.
    mutating func removeAll() {
        storage.removeAll()
        base += head
        head = 0
        sequenceByKey = nil
    }

    /// Where in `storage` the waiting entry with `key` is.
    private func position(of key: Key) -> Int? {
        if let sequenceByKey {
            return sequenceByKey[key].map { $0 - base }
        }
        var position = head
        while position < storage.count {
            if storage[position].key == key { return position }
            position += 1
        }
        return nil
    }

    private mutating func buildIndex() {
        var index: [Key: Int] = [:]
        index.reserveCapacity(count)
        for position in head..<storage.count {
            if let key = storage[position].key {
                index[key] = base + position
            }
        }
        sequenceByKey = index
    }

    private mutating func compactIfWorthwhile() {
        if head == storage.count {
            base += head
            head = 0
            storage.removeAll(keepingCapacity: true)
            sequenceByKey = nil
        } else if head >= 64, head * 2 >= storage.count {
            storage.removeFirst(head)
            base += head
            head = 0
        }
    }
}
