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
/// A message that depends on the previous one of its key (a state delta, which the reader applies to
/// the state before it) cannot take a waiting message's place: the reader would miss what it builds
/// on. Nor can it wait behind it (the queue would grow). So it is not queued, and the key's chain is
/// broken (``EnqueueOutcome/chainBroken``: the sender should send one that depends on nothing);
/// until such an independent message of the key comes, its dependent messages are dropped
/// (``EnqueueOutcome/dropped``). The reader never gets one it cannot apply.
///
/// A ring buffer: a queue usually holds zero or one message, so a key is looked for by comparing the
/// few waiting entries, and an index by key exists only while more than ``linearSearchLimit`` wait.
struct OutboundQueue<Message, Key: Hashable> {
    enum EnqueueOutcome: Equatable {
        /// Added at the end.
        case appended
        /// Took the place of a waiting message with the same coalescing key.
        case replaced
        /// A dependent message found a message of its key waiting: not queued, and the key's chain is
        /// broken until an independent message of that key is enqueued.
        case chainBroken
        /// A dependent message of a key whose chain is broken: not queued.
        case dropped
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
    /// The ring; its size is zero or a power of two. Slots not waiting are nil, so written messages are
    /// released at once.
    private var ring: [Entry?] = []
    /// Ring position of the oldest waiting entry.
    private var head = 0
    private(set) var count = 0
    /// Sequence number of the oldest waiting entry; every entry keeps its number while it waits.
    private var headSequence = 0
    /// Sequence number of the waiting entry for each key, kept only while more than
    /// `linearSearchLimit` entries wait (nil otherwise).
    private var sequenceByKey: [Key: Int]?
    /// Keys whose dependent messages are dropped until an independent one comes (``EnqueueOutcome/chainBroken``).
    private var brokenChains: Set<Key> = []

    init(capacity: Int) {
        precondition(capacity > 0, "an outbound queue needs room for at least one message")
        self.capacity = capacity
    }

    var isEmpty: Bool { count == 0 }
    /// Whether keys are currently found through the index rather than by comparison (for tests).
    var isIndexed: Bool { sequenceByKey != nil }

    /// Queues `message`, or replaces the waiting message with the same `key`. `dependsOnPrevious`: the
    /// message builds on the one of its key before it (see the type's notes).
    mutating func enqueue(_ message: Message, key: Key? = nil, dependsOnPrevious: Bool = false) -> EnqueueOutcome {
        if let key {
            if dependsOnPrevious, brokenChains.contains(key) { return .dropped }
            if !dependsOnPrevious, !brokenChains.isEmpty { brokenChains.remove(key) }
            if let offset = offset(of: key) {
                guard !dependsOnPrevious else {
                    brokenChains.insert(key)
                    return .chainBroken
                }
                ring[slot(offset)]!.message = message
                return .replaced
            }
        }
        guard count < capacity else { return .overflow }
        if count == ring.count {
            grow()
        }
        if let key, sequenceByKey != nil {
            sequenceByKey![key] = headSequence + count
        }
        ring[slot(count)] = Entry(key: key, message: message)
        count += 1
        if sequenceByKey == nil, count > Self.linearSearchLimit {
            buildIndex()
        }
        return .appended
    }

    /// Takes the oldest waiting message.
    mutating func dequeue() -> Message? {
        guard count > 0, let entry = ring[head].take() else { return nil }
        head = slot(1)
        count -= 1
        headSequence += 1
        if count == 0 {
            sequenceByKey = nil
        } else if let key = entry.key, sequenceByKey != nil {
            sequenceByKey![key] = nil
        }
        return entry.message
    }

    /// Drops every waiting message.
    mutating func removeAll() {
        for offset in 0..<count {
            ring[slot(offset)] = nil
        }
        headSequence += count
        count = 0
        sequenceByKey = nil
        brokenChains.removeAll()
    }

    /// Ring position of the entry `offset` places after the oldest.
    private func slot(_ offset: Int) -> Int {
        (head + offset) & (ring.count - 1)
    }

    /// How many places after the oldest the waiting entry with `key` is.
    private func offset(of key: Key) -> Int? {
        if let sequenceByKey {
            return sequenceByKey[key].map { $0 - headSequence }
        }
        for offset in 0..<count where ring[slot(offset)]!.key == key {
            return offset
        }
        return nil
    }

    /// Doubles the ring (at least 4 slots), moving the waiting entries to its start.
    private mutating func grow() {
        var larger = [Entry?](repeating: nil, count: max(4, ring.count * 2))
        for offset in 0..<count {
            larger[offset] = ring[slot(offset)]
        }
        ring = larger
        head = 0
    }

    private mutating func buildIndex() {
        var index: [Key: Int] = [:]
        index.reserveCapacity(count)
        for offset in 0..<count {
            if let key = ring[slot(offset)]!.key {
                index[key] = headSequence + offset
            }
        }
        sequenceByKey = index
    }
}
