import Synchronization

/// What one story's validations decoded and encoded, so that validating an edit decodes and encodes
/// again only the parts the edit changed. A patch copies only the path it changes: the rest of the
/// candidate props shares storage with the live props, and that is what the memo recognizes.
///
/// Both lookups are exact, never a guess by equality:
/// - decoding a type from an array or object whose storage was decoded before as that type gives the
///   value decoded then (the memo holds that JSON, so its storage is neither reused nor changed);
/// - encoding a value whose bits are those of a value decoded before (the memo holds that value, so
///   the buffers its bits point to cannot change either) gives the JSON that value encoded to, and
///   that is the very JSON it was decoded from when the two are identical: the round-trip check and
///   the history diff then stop there at once.
///
/// Both rest on what the design asks of Props already: `init(from:)` and `encode(to:)` are functions
/// of the value alone, and decoded values are not changed through references they share (a class
/// instance inside the props mutated after decoding). A value that decoded a class instance, or that
/// read its coding path, is never remembered, nor its encoding.
///
/// Only what the last successful validation touched is kept, so the memo is as big as the live props.
/// Validations on other threads at the same moment go without it.
package final class RoundTripMemo: @unchecked Sendable {
    /// Whether a validation is using `table`: only that one may touch it (the mutex orders the accesses).
    private let inUse = Mutex(false)
    private let table = RoundTripTable()

    package init() {}

    /// Runs `body` with the memo's table, or with none when another validation is using it.
    /// `body` says whether its validation succeeded: only then does what it touched replace what was kept.
    func withTable<Result>(_ body: (RoundTripTable?) -> (Result, succeeded: Bool)) -> Result {
        let acquired = inUse.withLock { taken in
            if taken { return false }
            taken = true
            return true
        }
        guard acquired else { return body(nil).0 }
        defer { inUse.withLock { $0 = false } }
        let (result, succeeded) = body(table)
        if succeeded { table.keepCurrent() } else { table.dropCurrent() }
        return result
    }

    /// How many decoded values the memo holds, and how many values it gave back instead of decoding
    /// and instead of encoding them, over its life (tests, benchmarks).
    package var statistics: (entries: Int, decodesSkipped: Int, encodesSkipped: Int) {
        withTable { table in ((table?.count ?? 0, table?.decodesSkipped ?? 0, table?.encodesSkipped ?? 0), false) }
    }
}

/// The memo's entries, used by one validation at a time (`RoundTripMemo.withTable`).
final class RoundTripTable {
    private struct StorageKey: Hashable {
        let type: ObjectIdentifier
        let storage: UInt
        /// Whether the storage is an object's: the empty array's elements start at the address of
        /// the empty dictionary (two static objects, one after the other), so `[]` and `{}` share one.
        let isObject: Bool
    }

    private struct BitsKey: Hashable {
        let type: ObjectIdentifier
        let bits: UInt64
    }

    /// A value decoded from `json`, kept in memory laid out as its type (so that reading it back is
    /// a copy and its bytes are compared where they are), and once known the JSON encoding it gives.
    private final class Entry {
        let json: JSONValue
        let storageKey: StorageKey
        let bitsKey: BitsKey
        var encoded: JSONValue?
        /// The validation that last used it.
        var used: Int
        /// The entries made or found while decoding it (its parts): used whenever it is.
        var parts: [Entry] = []
        /// The value. Held here, the buffers its bytes point to stay alive and are never uniquely referenced.
        let memory: UnsafeMutableRawPointer
        private let destroy: (UnsafeMutableRawPointer) -> Void

        init<T>(_ value: T, json: JSONValue, storageKey: StorageKey, bitsKey: BitsKey, used: Int) {
            self.json = json
            self.storageKey = storageKey
            self.bitsKey = bitsKey
            self.used = used
            memory = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<T>.size, alignment: MemoryLayout<T>.alignment)
            memory.initializeMemory(as: T.self, repeating: value, count: 1)
            destroy = { $0.assumingMemoryBound(to: T.self).deinitialize(count: 1) }
        }

        /// The value, which is a `T` (the keys name its type).
        func value<T>(as type: T.Type) -> T {
            memory.assumingMemoryBound(to: T.self).pointee
        }

        deinit {
            destroy(memory)
            memory.deallocate()
        }
    }

    private var byStorage: [StorageKey: Entry] = [:]
    private var byBits: [BitsKey: Entry] = [:]
    /// The number of the validation under way.
    private var validation = 0
    /// How many entries it used so far.
    private var used = 0
    /// The entries it made.
    private var made: [Entry] = []
    /// The entries the decodes under way made or found, innermost last: each becomes a part of the
    /// entry its enclosing decode makes.
    private var found: [Entry] = []
    /// Per type: where its values keep what they say; nil for the types never remembered.
    private var layouts: [ObjectIdentifier: SignificantBytes?] = [:]
    /// The types some entry was made for: the encoder looks up no other (an enum read from a
    /// string, an optional scalar).
    private var remembered: Set<ObjectIdentifier> = []
    /// The type asked for last, and its layout (a list's elements come one type after another).
    private var lastLayout: (type: ObjectIdentifier, layout: SignificantBytes?)?
    /// Whether the value being decoded or encoded depends on more than its JSON or its bits: it
    /// decoded a class instance (its parent may change it through the reference, and so the value
    /// remembered) or read its coding path (where it is). Such a value is not remembered, nor its
    /// encoding, nor those of the values around it.
    private var unrepeatable = false
    private(set) var decodesSkipped = 0
    private(set) var encodesSkipped = 0

    /// The value being decoded or encoded read where it is.
    func noteCodingPathRead() {
        unrepeatable = true
    }

    var count: Int { byStorage.count }

    /// The validation succeeded: what it did not use is forgotten once it is most of the memo. (An
    /// entry it found whole was used with all its parts, which it did not look up one by one.)
    func keepCurrent() {
        if byStorage.count > 2 * used + 64 {
            byStorage = byStorage.filter { $0.value.used == validation }
            byBits = byBits.filter { $0.value.used == validation }
        }
        startNext()
    }

    /// The validation failed: what it made is forgotten (what was refused is not worth keeping, and
    /// refused edits must not make the memo grow).
    func dropCurrent() {
        for entry in made {
            if byStorage[entry.storageKey] === entry { byStorage[entry.storageKey] = nil }
            if byBits[entry.bitsKey] === entry { byBits[entry.bitsKey] = nil }
        }
        startNext()
    }

    private func startNext() {
        validation += 1
        used = 0
        made.removeAll(keepingCapacity: true)
        found.removeAll(keepingCapacity: true)
        unrepeatable = false
    }

    private func use(_ entry: Entry) {
        guard entry.used != validation else { return }
        entry.used = validation
        used += 1
        for part in entry.parts { use(part) }
    }

    private func layout(of type: Any.Type) -> SignificantBytes? {
        let id = ObjectIdentifier(type)
        if let last = lastLayout, last.type == id { return last.layout }
        let layout: SignificantBytes?
        if let known = layouts[id] {
            layout = known
        } else {
            layout = SignificantBytes(of: type)
            layouts[id] = layout
        }
        lastLayout = (id, layout)
        return layout
    }

    /// `T` decoded from `json` (an array or an object), by `decode` unless it was decoded before.
    func decode<T>(_ type: T.Type, from json: JSONValue, _ decode: () throws -> T) rethrows -> T {
        let outer = unrepeatable
        unrepeatable = false
        defer { unrepeatable = unrepeatable || outer }
        guard let layout = layout(of: T.self) else {
            let value = try decode()
            if T.self is AnyObject.Type { unrepeatable = true }
            return value
        }
        guard let storage = json.storageAddress else { return try decode() }
        let isObject = if case .object = json { true } else { false }
        let storageKey = StorageKey(type: ObjectIdentifier(T.self), storage: storage, isObject: isObject)
        if let entry = byStorage[storageKey] {
            use(entry)
            found.append(entry)
            decodesSkipped += 1
            return entry.value(as: T.self)
        }
        let start = found.count
        let value = try decode()
        guard !unrepeatable else { return value }
        let entry = Entry(value, json: json, storageKey: storageKey,
                          bitsKey: BitsKey(type: ObjectIdentifier(T.self), bits: layout.fold(value)), used: validation)
        entry.parts = Array(found[start...])
        found.removeSubrange(start...)
        found.append(entry)
        used += 1
        made.append(entry)
        remembered.insert(storageKey.type)
        byStorage[storageKey] = entry
        byBits[entry.bitsKey] = entry
        return value
    }

    /// The JSON of `value`, by `encode` unless a value with the same significant bytes was decoded
    /// and encoded before.
    func encode<T>(_ value: T, _ encode: () throws -> JSONValue) rethrows -> JSONValue {
        guard remembered.contains(ObjectIdentifier(T.self)), let layout = layout(of: T.self),
              let entry = byBits[BitsKey(type: ObjectIdentifier(T.self), bits: layout.fold(value))],
              layout.value(value, matchesValueAt: entry.memory)
        else { return try encode() }
        use(entry)
        if let encoded = entry.encoded {
            encodesSkipped += 1
            return encoded
        }
        let outer = unrepeatable
        unrepeatable = false
        defer { unrepeatable = unrepeatable || outer }
        let json = try encode()
        guard !unrepeatable else { return json }
        // The JSON it was decoded from when identical: what shares its storage stops the walks at once.
        let encoded = json.isIdentical(to: entry.json) ? entry.json : json
        entry.encoded = encoded
        return encoded
    }
}
