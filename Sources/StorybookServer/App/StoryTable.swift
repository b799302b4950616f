import StorybookReview

/// Values by story id that can also be looked up by the id's UTF-8 bytes, without making a string of
/// them: the loop thread's immediate answers read the id out of the request's path. (A `Dictionary`
/// needs a `String` key, which costs an allocation for an id over 15 bytes, and hashes it with SipHash.)
///
/// Open addressing with linear probing over a power-of-two number of slots, keyed by FNV-1a of the
/// bytes (``ContentHash/fnv1a(_:)``, the hash of the ETags); keys, hashes and values in arrays of
/// their own, so that probing copies none of them. Setting a value to nil leaves the key's slot in
/// place, holding nothing.
struct StoryTable<Value> {
    private var keys: [[UInt8]?] = Array(repeating: nil, count: 16)
    private var hashes: [UInt64] = Array(repeating: 0, count: 16)
    private var values: [Value?] = Array(repeating: nil, count: 16)
    /// Slots with a key, counting those whose value was set to nil.
    private var occupied = 0

    /// The value for an id, or nil.
    subscript(id id: String) -> Value? {
        get {
            var id = id
            return id.withUTF8 { self[utf8: $0] }
        }
        set {
            var id = id
            id.withUTF8 { set(newValue, forKey: $0) }
        }
    }

    /// The value for the id whose UTF-8 bytes these are, or nil.
    subscript(utf8 key: UnsafeBufferPointer<UInt8>) -> Value? {
        slotIndex(of: key, hash: ContentHash.fnv1a(key)).flatMap { values[$0] }
    }

    /// What `body` makes of the value for the id whose UTF-8 bytes these are (the value is lent, not
    /// copied), or nil when there is none.
    func withValue<Result>(utf8 key: UnsafeBufferPointer<UInt8>, _ body: (Value) -> Result) -> Result? {
        guard let index = slotIndex(of: key, hash: ContentHash.fnv1a(key)) else { return nil }
        return values[index].map(body)
    }

    private mutating func set(_ value: Value?, forKey key: UnsafeBufferPointer<UInt8>) {
        let hash = ContentHash.fnv1a(key)
        if let index = slotIndex(of: key, hash: hash) {
            values[index] = value
            return
        }
        guard let value else { return }
        if (occupied + 1) * 4 > keys.count * 3 { grow() }
        insert(Array(key), hash: hash, value: value)
        occupied += 1
    }

    /// The slot holding `key`, or nil when none does.
    private func slotIndex(of key: UnsafeBufferPointer<UInt8>, hash: UInt64) -> Int? {
        let mask = keys.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while let stored = keys[index] {
            if hashes[index] == hash, stored.count == key.count, key.holds(stored, at: 0) { return index }
            index = (index + 1) & mask
        }
        return nil
    }

    private mutating func insert(_ key: [UInt8], hash: UInt64, value: Value?) {
        let mask = keys.count - 1
        var index = Int(truncatingIfNeeded: hash) & mask
        while keys[index] != nil { index = (index + 1) & mask }
        keys[index] = key
        hashes[index] = hash
        values[index] = value
    }

    private mutating func grow() {
        let (oldKeys, oldHashes, oldValues) = (keys, hashes, values)
        let count = oldKeys.count * 2
        keys = Array(repeating: nil, count: count)
        hashes = Array(repeating: 0, count: count)
        values = Array(repeating: nil, count: count)
        for index in oldKeys.indices {
            guard let key = oldKeys[index] else { continue }
            insert(key, hash: oldHashes[index], value: oldValues[index])
        }
    }
}

extension StoryTable: Sendable where Value: Sendable {}
