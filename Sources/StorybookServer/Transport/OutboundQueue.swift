/// The messages waiting to be written to one WebSocket, oldest first.
///
/// A message sent with a coalescing key replaces, in place, a waiting message with the same key: a slow
/// reader gets the latest value of every key, in the order the keys first became pending, and the queue
/// never grows for them. Messages without a key simply queue; at `capacity` waiting messages a further
/// one is refused with ``EnqueueOutcome/overflow`` and the connection should be closed.
///
/// A message leaves the queue when it is handed to libwebsockets; from then on it can no longer be
/// replaced. Pure value type: no sockets, no clock, so it is tested on its own.
struct OutboundQueue<Message> {
    enum EnqueueOutcome: Equatable {
        /// Added at the end.
        case appended
        /// Took the place of a waiting message with the same coalescing key.
        case replaced
        /// Refused: `capacity` messages are already waiting.
        case overflow
    }

    private struct Entry {
        var key: String?
        var message: Message
    }

    /// The most messages that may wait at once.
    let capacity: Int
    /// `storage[head...]` are the waiting entries; the prefix is consumed and compacted away lazily.
    private var storage: [Entry] = []
    private var head = 0
    /// Absolute sequence number of `storage[0]`; entries keep their sequence number across compaction.
    private var base = 0
    /// Sequence number of the waiting entry for each coalescing key.
    private var sequenceByKey: [String: Int] = [:]

    init(capacity: Int) {
        precondition(capacity > 0, "an outbound queue needs room for at least one message")
        self.capacity = capacity
    }

    var count: Int { storage.count - head }
    var isEmpty: Bool { count == 0 }

    /// Queues `message`, or replaces the waiting message with the same `key`.
    mutating func enqueue(_ message: Message, key: String? = nil) -> EnqueueOutcome {
        if let key, let sequence = sequenceByKey[key] {
            storage[sequence - base].message = message
            return .replaced
        }
        guard count < capacity else { return .overflow }
        if let key {
            sequenceByKey[key] = base + storage.count
        }
        storage.append(Entry(key: key, message: message))
        return .appended
    }

    /// Takes the oldest waiting message.
    mutating func dequeue() -> Message? {
        guard head < storage.count else { return nil }
        let entry = storage[head]
        if let key = entry.key {
            sequenceByKey[key] = nil
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
        sequenceByKey.removeAll()
    }

    private mutating func compactIfWorthwhile() {
        if head == storage.count {
            base += head
            head = 0
            storage.removeAll(keepingCapacity: true)
        } else if head >= 64, head * 2 >= storage.count {
            storage.removeFirst(head)
            base += head
            head = 0
        }
    }
}
