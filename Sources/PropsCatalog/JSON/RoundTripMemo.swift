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
///   the history diff then stop there at once;
/// - a list whose elements are stored, each, where the list decoded before stored its element at the
///   same index is that list's value with the other elements decoded into it, and when that list
///   encoded to its own JSON, it encodes to its own JSON but for those elements' encodings.
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
        guard acquire() else { return body(nil).0 }
        defer { relinquish() }
        table.forgetReplaced()
        let (result, succeeded) = body(table)
        if succeeded { table.keepCurrent() } else { table.dropCurrent() }
        return result
    }

    /// Whether the table was free, and now taken.
    private func acquire() -> Bool {
        inUse.withLock { taken in
            if taken { return false }
            taken = true
            return true
        }
    }

    private func relinquish() {
        inUse.withLock { $0 = false }
    }

    /// Forgets what the last validation replaced (see `RoundTripTable.forgetReplaced`): finding it
    /// and freeing a long list's replaced arrays, which releases what their items hold, the story's
    /// hub does after the new state is sent, where no subscriber waits for it. Otherwise the next
    /// use of the memo does, first.
    package func forgetReplaced() {
        guard acquire() else { return }
        defer { relinquish() }
        table.forgetReplaced()
    }

    /// How many rows of `ForEach(memoizing:)` the memo keeps, how many it built and gave back, and
    /// how many list items around them it gave back, over its life (tests, benchmarks).
    package var rowStatistics: (kept: Int, built: Int, reused: Int, listItemsReused: Int) {
        withTable { table in
            ((table?.rows.count ?? 0, table?.rows.rowsBuilt ?? 0, table?.rows.rowsReused ?? 0, table?.rows.listItemsReused ?? 0), false)
        }
    }

    /// How many decoded values the memo holds, how many values it gave back instead of decoding
    /// and instead of encoding them, how many of those it found by their position in a list (not
    /// looked up one by one), and how many times it swept what was no longer used, over its life
    /// (tests, benchmarks).
    package var statistics: (entries: Int, decodesSkipped: Int, encodesSkipped: Int, foundByPosition: Int, sweeps: Int) {
        withTable { table in
            ((table?.count ?? 0, table?.decodesSkipped ?? 0, table?.encodesSkipped ?? 0, table?.foundByPosition ?? 0,
              table?.sweeps ?? 0), false)
        }
    }
}

/// The memo's entries, used by one validation at a time (`RoundTripMemo.withTable`).
final class RoundTripTable {
    // The keys hash one word made of their fields (equality still compares every field): one
    // `Hasher` round instead of one per field, on every item of a list looked up.

    private struct StorageKey: Hashable {
        let type: ObjectIdentifier
        let storage: UInt
        /// Whether the storage is an object's: the empty array's elements start at the address of
        /// the empty dictionary (two static objects, one after the other), so `[]` and `{}` share one.
        let isObject: Bool

        func hash(into hasher: inout Hasher) {
            hasher.combine(storage ^ UInt(bitPattern: type).byteSwapped ^ (isObject ? 1 : 0))
        }

        init(type: ObjectIdentifier, storage: UInt, isObject: Bool) {
            self.type = type
            self.storage = storage
            self.isObject = isObject
        }

        /// The key of `json` decoded as `type`; nil for a value that is no array or object.
        init?(type: ObjectIdentifier, json: JSONValue) {
            guard let storage = json.storageAddress else { return nil }
            self.init(type: type, storage: storage, isObject: json.isObject)
        }
    }

    private struct BitsKey: Hashable {
        let type: ObjectIdentifier
        let bits: UInt64

        func hash(into hasher: inout Hasher) {
            hasher.combine(bits ^ UInt64(UInt(bitPattern: type).byteSwapped))
        }
    }

    /// What the table knows of one type, asked once per type and then found by identity.
    private final class TypeFacts {
        let type: Any.Type
        /// Where its values keep what they say (nil: never remembered).
        @exclusivity(unchecked) private var knownLayout = AnswerOnce<SignificantBytes?>()
        /// Whether some entry was made for it: the encoder looks up no other type (an enum read
        /// from a string, an optional scalar).
        @exclusivity(unchecked) var remembered = false
        /// Whether it may be one of the numbers the decoder reads itself.
        @exclusivity(unchecked) var mayBeNumber = AnswerOnce<Bool>()
        /// How the decoder decodes it element by element when it is an array.
        @exclusivity(unchecked) var elementwise = AnswerOnce<(any ElementwiseDecodable.Type)?>()
        /// How the encoder encodes it element by element when it is an array.
        @exclusivity(unchecked) var elementwiseEncodable = AnswerOnce<(any ElementwiseEncodable.Type)?>()

        init(_ type: Any.Type) {
            self.type = type
        }

        var layout: SignificantBytes? {
            knownLayout.answer { SignificantBytes(of: type) }
        }
    }

    /// An answer about a type, worked out the first time it is asked and kept (a conformance cast,
    /// a reflection: what should not be paid per value).
    private struct AnswerOnce<Value> {
        /// The answer; nil until asked.
        private(set) var known: Value?

        mutating func answer(_ work: () -> Value) -> Value {
            if let known { return known }
            let value = work()
            known = value
            return value
        }
    }

    /// A part of an entry, not retained: the table holds every part of every entry it holds (the
    /// sweep keeps the parts of what it keeps; a failed validation drops only entries it made, which
    /// only the entries it made have as parts). So copying a list's parts, when one of its 500
    /// items is edited, copies words, and retains and later releases none of them.
    private struct Part {
        private let reference: Unmanaged<Entry>

        init(_ entry: Entry) {
            reference = .passUnretained(entry)
        }

        var entry: Entry { reference.takeUnretainedValue() }
        /// Where the entry is (or was), without reading it.
        var address: UnsafeMutableRawPointer { reference.toOpaque() }
    }

    /// A value decoded from `json`, held as its type, and once known the JSON encoding it gives.
    private final class Entry: HeldValue {
        let json: JSONValue
        let storageKey: StorageKey
        let bitsKey: BitsKey
        @exclusivity(unchecked) var encoded: JSONValue?
        /// The validation that last used it.
        @exclusivity(unchecked) var used: Int
        /// The entries made or found while decoding it (its parts): used whenever it is.
        @exclusivity(unchecked) var parts: [Part] = []
        /// How many entries it is made of, itself and its parts' (a part found twice counts twice):
        /// what using it uses, counted without walking the parts.
        @exclusivity(unchecked) var size = 1
        /// The array entry made last with this one among its parts: where a list decoded again
        /// finds its items' entries by position instead of one lookup each.
        @exclusivity(unchecked) weak var array: Entry?
        /// For an array: the array remembered before that shared its first or last part when this
        /// one was made (the list it was patched from), whose encoding gives the elements they share.
        @exclusivity(unchecked) weak var previous: Entry?
        /// For an array made from `previous`'s value with only some elements decoded (see
        /// `RoundTripTable.patchElements`): the indices of those; every other element is `previous`'s.
        @exclusivity(unchecked) var anew: [Int]?
        /// For an array: whether its parts are its elements' entries, in order, one each (element
        /// `i` decoded, as the array's element type, from the JSON element `i`).
        @exclusivity(unchecked) var partsLineUp = false

        /// Whether this entry is a value of `type` decoded from `json`'s storage.
        func isDecoded(as type: ObjectIdentifier, from json: JSONValue) -> Bool {
            storageKey == StorageKey(type: type, json: json)
        }

        init<T>(_ value: T, json: JSONValue, storageKey: StorageKey, bitsKey: BitsKey, used: Int) {
            self.json = json
            self.storageKey = storageKey
            self.bitsKey = bitsKey
            self.used = used
            super.init(value)
        }
    }

    // The table's state is unchecked for exclusive access (the runtime's checks cost about a tenth of
    // a list's lookups): one validation at a time uses the table (`RoundTripMemo.withTable`), and no
    // access to these properties lasts across a call back into the table.

    @exclusivity(unchecked) private var byStorage: [StorageKey: Entry] = [:]
    @exclusivity(unchecked) private var byBits: [BitsKey: Entry] = [:]
    /// The number of the validation under way.
    @exclusivity(unchecked) private var validation = 0
    /// How many entries it used so far.
    @exclusivity(unchecked) private var used = 0
    /// The entries it made.
    @exclusivity(unchecked) private var made: [Entry] = []
    /// The entries the last validation that succeeded made.
    @exclusivity(unchecked) private var madeBefore: [Entry] = []
    /// The entries the validation before that one made, while `forgetReplaced` has yet to look at
    /// them, and the number of the validation that succeeded since.
    @exclusivity(unchecked) private var replacing: (candidates: [Entry], validation: Int) = ([], 0)
    /// The entries the decodes under way made or found, innermost last: each becomes a part of the
    /// entry its enclosing decode makes.
    @exclusivity(unchecked) private var found: [Entry] = []
    /// What is known of each type asked for.
    @exclusivity(unchecked) private var facts: [ObjectIdentifier: TypeFacts] = [:]
    /// The type asked for last, and what is known of it (a list's elements come one type after another).
    @exclusivity(unchecked) private var lastFacts: (type: ObjectIdentifier, facts: TypeFacts)?
    /// Whether the value being decoded or encoded depends on more than its JSON or its bits: it
    /// decoded a class instance (its parent may change it through the reference, and so the value
    /// remembered) or read its coding path (where it is). Such a value is not remembered, nor its
    /// encoding, nor those of the values around it.
    @exclusivity(unchecked) private var unrepeatable = false
    @exclusivity(unchecked) private(set) var decodesSkipped = 0
    @exclusivity(unchecked) private(set) var encodesSkipped = 0
    @exclusivity(unchecked) private(set) var foundByPosition = 0
    @exclusivity(unchecked) private(set) var sweeps = 0
    /// The rows `ForEach(memoizing:)` built in the last render of the story's view.
    let rows = RowMemo()

    /// What `patchElements` made an array of, for `decode` to remember that array with: the JSON
    /// array's storage and the array type, the array it was patched from, the indices of the elements
    /// decoded, and the entries of all elements by position.
    private struct PatchedArray {
        let storage: UInt
        let type: ObjectIdentifier
        let previous: Entry
        let anew: [Int]
        let parts: [Part]
        let partsLineUp: Bool
        /// The sizes of its elements' entries, added up.
        let partsSize: Int
    }
    @exclusivity(unchecked) private var patchedArray: PatchedArray?

    /// The value being decoded or encoded read where it is.
    func noteCodingPathRead() {
        unrepeatable = true
    }

    var count: Int { byStorage.count }

    /// The validation succeeded: what the validation before made and it did not use (what an edit
    /// replaced) is forgotten at once, anything else it did not use once that is most of the memo. (An
    /// entry it found whole was used with all its parts, which it did not look up one by one, and a
    /// list patched from the one before used the elements it took over, which it counted: the parts
    /// of what was used are marked before anything is forgotten.)
    func keepCurrent() {
        if byStorage.count > 2 * used + 64 {
            sweeps += 1
            markPartsUsed()
            byStorage = byStorage.filter { $0.value.used == validation }
            byBits = byBits.filter { $0.value.used == validation }
            assert(holdsEveryPart)
        } else if !made.isEmpty {
            swap(&replacing.candidates, &madeBefore)
            replacing.validation = validation
        }
        // A validation that made nothing (the live props again, in another environment for a
        // subscriber or an audit) replaced nothing: the last edit's entries stay the ones to look at.
        if !made.isEmpty { swap(&made, &madeBefore) }
        startNext()
    }

    /// Forgets, not at the next sweep, what the validation before the last one that succeeded made
    /// and that one did not use: what an edit replaced. Editing an item of a long list makes the
    /// props, the list and the item again each time, and the list's entry holds its decoded array and
    /// its JSON array (about 45 KB for 500 items): kept until the sweep, a fresh server's heap grew by
    /// that much an edit, on fresh pages, where now the next edit's arrays reuse the memory just freed.
    /// It runs after the validation (``RoundTripMemo/forgetReplaced()``), at the latest before the
    /// table is used again, while what the last validation used is still marked with its number.
    ///
    /// An entry that validation took over without marking it (an element `patchElements` counted) is
    /// a part of an entry it made; so is what is found under it. Those are looked for among the parts
    /// of what it made, by address, and kept. Nothing older can hold what the validation before made:
    /// an entry's parts are made before it.
    func forgetReplaced() {
        guard !replacing.candidates.isEmpty else { return }
        let last = replacing.validation
        let unused = replacing.candidates.filter { $0.used != last }
        if !unused.isEmpty {
            let addresses = unused.map { Unmanaged.passUnretained($0).toOpaque() }
            let lookup = addresses.count > 16 ? Set(addresses) : nil
            var pending = madeBefore
            while let entry = pending.popLast() {
                for part in entry.parts where lookup?.contains(part.address) ?? addresses.contains(part.address) {
                    let kept = part.entry
                    guard kept.used != last else { continue }
                    kept.used = last
                    pending.append(kept)
                }
            }
            for entry in unused where entry.used != last { remove(entry) }
            assert(holdsEveryPart)
        }
        replacing.candidates.removeAll(keepingCapacity: true)  // frees what was forgotten
    }

    /// The validation failed: what it made is forgotten (what was refused is not worth keeping, and
    /// refused edits must not make the memo grow).
    func dropCurrent() {
        for entry in made { remove(entry) }
        assert(holdsEveryPart)
        startNext()
    }

    /// Takes `entry` out of both lookups, where it is still the one found.
    private func remove(_ entry: Entry) {
        if byStorage[entry.storageKey] === entry { byStorage[entry.storageKey] = nil }
        if byBits[entry.bitsKey] === entry { byBits[entry.bitsKey] = nil }
    }

    /// How many entries `entries` are made of (``Entry/size``), added up.
    private static func size(of entries: ArraySlice<Entry>) -> Int {
        entries.reduce(0) { $0 + $1.size }
    }

    /// Whether every part of every entry held is held (parts are not retained: see `Part`), checked
    /// by address, without reading a part.
    private var holdsEveryPart: Bool {
        let held = Set(byStorage.values.map { Unmanaged.passUnretained($0).toOpaque() })
        return byStorage.values.allSatisfy { $0.parts.allSatisfy { held.contains($0.address) } }
    }

    private func startNext() {
        rows.finishRender()
        validation += 1
        used = 0
        made.removeAll(keepingCapacity: true)
        found.removeAll(keepingCapacity: true)
        patchedArray = nil
        unrepeatable = false
    }

    /// Marks as used the parts of every entry used, down to the leaves: the elements a list took
    /// from the list before it (`patchElements`) were counted, not marked, one by one.
    private func markPartsUsed() {
        var pending = byStorage.values.filter { $0.used == validation }
        while let entry = pending.popLast() {
            for part in entry.parts where part.entry.used != validation {
                part.entry.used = validation
                pending.append(part.entry)
            }
        }
    }

    private func use(_ entry: Entry) {
        guard entry.used != validation else { return }
        entry.used = validation
        used += 1
        for part in entry.parts { use(part.entry) }
    }

    private func facts(of type: Any.Type) -> TypeFacts {
        let id = ObjectIdentifier(type)
        if let last = lastFacts, last.type == id { return last.facts }
        let known: TypeFacts
        if let found = facts[id] {
            known = found
        } else {
            known = TypeFacts(type)
            facts[id] = known
        }
        lastFacts = (id, known)
        return known
    }

    /// Whether `type` may be a number, as `ask` says the first time (the decoder asks for every
    /// value that is not a `String`, `Bool`, `Int`, `Int64` or `Double`: each item of a list).
    func mayBeNumber(_ type: Any.Type, ask: (Any.Type) -> Bool) -> Bool {
        facts(of: type).mayBeNumber.answer { ask(type) }
    }

    /// How `type` is decoded element by element, if it is an array (the cast is made once per type).
    func elementwise(_ type: Any.Type) -> (any ElementwiseDecodable.Type)? {
        facts(of: type).elementwise.answer { type as? any ElementwiseDecodable.Type }
    }

    /// How `type` is encoded element by element, if it is an array (the cast is made once per type).
    func elementwiseEncodable(_ type: Any.Type) -> (any ElementwiseEncodable.Type)? {
        facts(of: type).elementwiseEncodable.answer { type as? any ElementwiseEncodable.Type }
    }

    /// The elements of a JSON array decoded as `[Element]`, for `ElementwiseDecodable`: each element
    /// whose storage was decoded as `Element` in the same place of an array remembered before (a
    /// list one item of which was edited) is that entry's value; any other by `decode` (which looks
    /// it up in the memo as usual). The entries are found by position, not looked up one by one.
    func decodeElements<Element>(
        _ type: Element.Type, of elements: [JSONValue], _ decode: (Int, JSONValue) throws -> Element
    ) rethrows -> [Element] {
        let elementType = ObjectIdentifier(Element.self)
        let before = facts(of: Element.self).layout == nil ? nil : arrayEntry(around: elements, of: elementType)
        if let before, let patched = try patchElements(of: before, to: elements, decode) { return patched }
        var values: [Element] = []
        values.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            if let before, index < before.parts.count {
                let part = before.parts[index].entry
                if part.isDecoded(as: elementType, from: element) {
                    foundByPosition += 1
                    values.append(reuse(part, as: Element.self))
                    continue
                }
            }
            values.append(try decode(index, element))
        }
        return values
    }

    /// `elements` decoded as `[Element]` from `before`'s value, when that is an `[Element]` of as many
    /// elements whose parts are its elements' entries in order: each element stored where `before`'s
    /// JSON stores its element at the same index is `before`'s element there, and only the others are
    /// decoded, by `decode`. A list one item of which was edited costs a check per item and a copy of
    /// the array, not a copy of each item. Nil, having decoded nothing, when `before` is not such an array.
    private func patchElements<Element>(
        of before: Entry, to elements: [JSONValue], _ decode: (Int, JSONValue) throws -> Element
    ) rethrows -> [Element]? {
        guard before.storageKey.type == ObjectIdentifier([Element].self), before.partsLineUp, case .array(let old) = before.json,
              old.count == elements.count, let storage = JSONValue.array(elements).storageAddress
        else { return nil }
        // First which elements are stored where `before`'s were: only the JSON arrays are read (not
        // the entries, which line up with `before`'s elements and are this array's parts there).
        var anew: [Int] = []
        for index in elements.indices where !elements[index].isAtOnceIdentical(to: old[index]) {
            anew.append(index)
        }
        // ...then the others decoded into a copy of `before`'s value.
        var values = before.value(as: [Element].self)
        var parts = before.parts
        var linedUp = true
        // what the elements taken from `before` are made of: all of `before` but itself and the others
        var reusedSize = before.size - 1
        var decodedSize = 0
        for index in anew {
            reusedSize -= before.parts[index].entry.size
            let start = found.count
            values[index] = try decode(index, elements[index])
            decodedSize += Self.size(of: found[start...])
            // the entry its decoding made or found stands at its index; several (an element not
            // remembered, whose parts were) go after the others, and the array's parts no longer line up
            if found.count == start + 1, found[start].isDecoded(as: ObjectIdentifier(Element.self), from: elements[index]) {
                parts[index] = Part(found[start])
            } else {
                parts.append(contentsOf: found[start...].map(Part.init))
                linedUp = false
            }
            found.removeSubrange(start...)
        }
        // The elements taken from `before` are used, counted (with what they are made of) rather than
        // each marked (the sweep marks them: `markPartsUsed`); the first and last are marked, as
        // `arrayEntry(around:)` asks them.
        let reused = elements.count - anew.count
        used += reusedSize
        if let first = parts.first { use(first.entry) }
        if let last = parts.last { use(last.entry) }
        decodesSkipped += reused
        foundByPosition += reused
        patchedArray = PatchedArray(
            storage: storage, type: ObjectIdentifier([Element].self), previous: before, anew: anew, parts: parts, partsLineUp: linedUp,
            partsSize: reusedSize + decodedSize)
        return values
    }

    /// Whether `parts` are the entries of the elements of the JSON array `json`, in order, one each,
    /// all of one type.
    private static func lineUp(_ parts: [Part], with json: JSONValue) -> Bool {
        guard case .array(let elements) = json, parts.count == elements.count, let type = parts.first?.entry.storageKey.type
        else { return false }
        return elements.indices.allSatisfy { parts[$0].entry.isDecoded(as: type, from: elements[$0]) }
    }

    /// A remembered array whose parts are the entries of `elements`' first or last element: where
    /// `elements` may have been patched from.
    private func arrayEntry(around elements: [JSONValue], of elementType: ObjectIdentifier) -> Entry? {
        for element in [elements.first, elements.last] {
            guard let element, let key = StorageKey(type: elementType, json: element),
                  let array = byStorage[key]?.array,
                  byStorage[array.storageKey] === array  // still remembered, and so are its parts
            else { continue }
            return array
        }
        return nil
    }

    /// The value of `entry`, found again.
    private func reuse<T>(_ entry: Entry, as type: T.Type) -> T {
        use(entry)
        found.append(entry)
        decodesSkipped += 1
        return entry.value(as: T.self)
    }

    /// `T` decoded from `json` (an array or an object), by `decode` unless it was decoded before.
    func decode<T>(_ type: T.Type, from json: JSONValue, _ decode: () throws -> T) rethrows -> T {
        let outer = unrepeatable
        unrepeatable = false
        defer { unrepeatable = unrepeatable || outer }
        let known = facts(of: T.self)
        guard let layout = known.layout else {
            let value = try decode()
            if T.self is AnyObject.Type { unrepeatable = true }
            return value
        }
        guard let storageKey = StorageKey(type: ObjectIdentifier(T.self), json: json) else { return try decode() }
        if let entry = byStorage[storageKey] { return reuse(entry, as: T.self) }
        let start = found.count
        let value = try decode()
        let patched = patchedArray.flatMap { $0.storage == storageKey.storage && $0.type == storageKey.type ? $0 : nil }
        patchedArray = nil
        guard !unrepeatable else { return value }
        let entry = Entry(value, json: json, storageKey: storageKey,
                          bitsKey: BitsKey(type: ObjectIdentifier(T.self), bits: layout.fold(value)), used: validation)
        if let patched {
            entry.parts = start == found.count ? patched.parts : patched.parts + found[start...].map(Part.init)
            entry.size = 1 + patched.partsSize + Self.size(of: found[start...])
        } else {
            entry.parts = found[start...].map(Part.init)
            entry.size = 1 + Self.size(of: found[start...])
        }
        found.removeSubrange(start...)
        found.append(entry)
        used += 1
        made.append(entry)
        known.remembered = true
        if let patched {
            // only the first and last elements' entries are asked for their array (`arrayEntry(around:)`)
            entry.previous = patched.previous
            entry.anew = patched.anew
            entry.partsLineUp = patched.partsLineUp && entry.parts.count == patched.parts.count
            entry.parts.first?.entry.array = entry
            entry.parts.last?.entry.array = entry
        } else if case .some(.some) = known.elementwise.known {
            entry.previous = entry.parts.first?.entry.array ?? entry.parts.last?.entry.array
            for part in entry.parts { part.entry.array = entry }
            entry.partsLineUp = Self.lineUp(entry.parts, with: json)
        }
        byStorage[storageKey] = entry
        byBits[entry.bitsKey] = entry
        return value
    }

    /// The JSON of `value`, by `encode` unless a value with the same significant bytes was decoded
    /// and encoded before. `encode` is given what an array's encoding can take from the array its
    /// value was decoded next to (`ElementwiseEncodable`), when there is such an array.
    func encode<T>(_ value: T, _ encode: (PreviousElements?) throws -> JSONValue) rethrows -> JSONValue {
        let known = facts(of: T.self)
        guard known.remembered, let layout = known.layout,
              let entry = byBits[BitsKey(type: ObjectIdentifier(T.self), bits: layout.fold(value))],
              layout.value(value, matchesValueAt: entry.memory)
        else { return try encode(nil) }
        use(entry)
        if let encoded = entry.encoded {
            encodesSkipped += 1
            return encoded
        }
        let outer = unrepeatable
        unrepeatable = false
        defer { unrepeatable = unrepeatable || outer }
        let json = try encode(previousElements(of: entry))
        guard !unrepeatable else { return json }
        // The JSON it was decoded from when identical: what shares its storage stops the walks at once.
        let encoded = json.isIdentical(to: entry.json) ? entry.json : json
        entry.encoded = encoded
        return encoded
    }

    /// The JSON elements an array's encoding shares with the array remembered before it: element `i`
    /// when both arrays were decoded with the same entry at `i` from JSON elements stored there
    /// (so both values hold the same bits there), read from that array's encoding.
    private func previousElements(of entry: Entry) -> PreviousElements? {
        // An array patched from one whose encoding was its own JSON: each element it took from that
        // one encodes to its JSON there, which is this array's JSON at the same index.
        if let anew = entry.anew, let previous = entry.previous, case .array(let elements) = entry.json,
           let encoded = previous.encoded, let storage = encoded.storageAddress, storage == previous.json.storageAddress {
            encodesSkipped += elements.count - anew.count
            foundByPosition += elements.count - anew.count
            return PreviousElements(json: elements, anew: anew)
        }
        guard let previous = entry.previous, previous.storageKey.type == entry.storageKey.type,
              case .array(let elements) = entry.json, case .array(let previousElements) = previous.json,
              case .array(let previousEncoded)? = previous.encoded, previousEncoded.count == previousElements.count
        else { return nil }
        var shared = [JSONValue?](repeating: nil, count: elements.count)
        var count = 0
        for index in 0..<min(elements.count, previousElements.count, entry.parts.count, previous.parts.count) {
            let part = entry.parts[index].entry
            guard part === previous.parts[index].entry, let storage = elements[index].storageAddress,
                  storage == part.storageKey.storage, previousElements[index].storageAddress == storage
            else { continue }
            shared[index] = previousEncoded[index]
            count += 1
        }
        guard count > 0 else { return nil }
        encodesSkipped += count
        foundByPosition += count
        return PreviousElements(shared: shared)
    }
}

/// What an array's encoding takes from the array it was decoded next to: the JSON of each element
/// they share, by position; or all of the array's own JSON but the elements at some indices.
struct PreviousElements {
    private enum Known {
        case shared([JSONValue?])
        case allBut(json: [JSONValue], anew: [Int])
    }

    private let known: Known

    fileprivate init(shared: [JSONValue?]) {
        known = .shared(shared)
    }

    fileprivate init(json: [JSONValue], anew: [Int]) {
        known = .allBut(json: json, anew: anew)
    }

    /// The JSON of an array of `count` elements, the ones not known already by `encode` (given an
    /// index). All of it the very JSON the array was decoded from, when its elements encode to theirs.
    func elements(count: Int, _ encode: (Int) throws -> JSONValue) rethrows -> [JSONValue] {
        switch known {
        case .allBut(let json, let anew) where json.count == count:
            var elements = json
            for index in anew {
                let element = try encode(index)
                if !element.isIdentical(to: json[index]) { elements[index] = element }
            }
            return elements
        case .allBut:
            return try (0..<count).map(encode)
        case .shared(let shared):
            var elements: [JSONValue] = []
            elements.reserveCapacity(count)
            for index in 0..<count {
                if index < shared.count, let element = shared[index] {
                    elements.append(element)
                } else {
                    elements.append(try encode(index))
                }
            }
            return elements
        }
    }
}

extension JSONValue {
    /// Whether this is an object (`[]` and `{}` share one storage address, so the kind says which).
    fileprivate var isObject: Bool {
        if case .object = self { true } else { false }
    }
}
