import Foundation

/// Encodes `Encodable` values straight into `JSONValue`, the form the server stores and sends.
///
/// Differences from `JSONEncoder`, on purpose: a nil optional is written as an explicit `null`
/// (so every field is visible to editors and schemas), dates are ISO 8601 strings (with
/// milliseconds when they have a fraction), URLs their absolute string, UUIDs their uuidString,
/// `Data` base64, `Decimal` its exact decimal text, `UInt64` every digit. Sets and dictionaries
/// whose keys are not strings (both come out of Swift in hash order, which changes from process
/// to process) are written in a canonical order, so equal values give equal bytes in every run.
/// Non-finite doubles cannot be JSON and throw.
package struct JSONValueEncoder: Sendable {
    package init() {}

    /// The JSON value of `value`.
    package func encode(_ value: some Encodable) throws -> JSONValue {
        try EncodingNode.encode(value, at: .root, noting: nil, memo: nil)
    }

    /// The JSON value of `value`, encoding again only the parts that `memo` has seen decoded and
    /// not encoded. (The root is new with every edit: only its parts are looked up.)
    func encode(_ value: some Encodable, memo: RoundTripTable?) throws -> JSONValue {
        try EncodingNode.encode(value, at: .root, noting: nil, memo: memo, lookUp: false)
    }

    /// The JSON value of `value`, and the places where the encoder put a hash-ordered collection
    /// (a `Set`, a dictionary with keys that are not strings) into canonical order: there, and only
    /// there, the order of an array is not part of the value. A place is a pattern: below such a
    /// collection the element's position is `*`, since it depends on the order the collection had.
    package func encodeNotingCanonicalOrder(_ value: some Encodable) throws -> (json: JSONValue, reordered: Set<JSONPointer>) {
        let positions = CanonicalOrderPositions()
        let json = try EncodingNode.encode(value, at: .root, noting: positions, memo: nil)
        return (json, positions.patterns)
    }
}

/// Where one encoding put hash-ordered collections into canonical order. Made for one synchronous
/// `encodeNotingCanonicalOrder` call and handed down its containers: never shared.
private final class CanonicalOrderPositions {
    private(set) var patterns: Set<JSONPointer> = []
    /// The coding path lengths of the hash-ordered collections being encoded, outermost first.
    private var open: [Int] = []

    /// A hash-ordered collection at `codingPath` starts encoding its elements.
    func enter(_ codingPath: [any CodingKey]) {
        open.append(codingPath.count)
    }

    /// The collection at `codingPath` is done: its place is noted, with `*` for each position that
    /// sits directly inside an enclosing one (`/visits/*/tags` for a set in an enum-keyed dictionary).
    func leave(_ codingPath: [any CodingKey]) {
        open.removeLast()
        var tokens = PropsDecoding.pointer(codingPath).tokens
        for depth in open where depth < tokens.count { tokens[depth] = "*" }
        patterns.insert(JSONPointer(tokens: tokens))
    }
}

/// What containers write into, then frozen into a `JSONValue`. Plain values go straight into
/// `members` or `elements`; only nested containers and encoders get a node of their own.
private final class EncodingNode {
    enum Kind { case empty, value, object, array }

    private(set) var kind = Kind.empty
    private var value = JSONValue.null
    /// The object's members that are values, in the order they were set (a key set again wins
    /// with its last value); `nestedMembers` has the others (keys not in `members`). A dictionary
    /// is made once, of the right size, when the node is frozen.
    private var members: [(key: String, value: JSONValue)] = []
    private var nestedMembers: [String: EncodingNode] = [:]
    /// The array's elements, a placeholder at each position `nestedElements` fills.
    private(set) var elements: [JSONValue] = []
    private var nestedElements: [(index: Int, node: EncodingNode)] = []

    var frozen: JSONValue {
        switch kind {
        case .empty: return .object([:])
        case .value: return value
        case .object:
            // Sized by specialized code: `init(minimumCapacity:)` is not specialized here, and looked
            // up its storage's generic type in the runtime for every object encoded.
            // (The pairs unlabeled as they are read: an array of labeled ones is cast element by element.)
            var all = Dictionary(members.lazy.map { ($0.key, $0.value) }, uniquingKeysWith: { $1 })  // a key set again: its last value
            for (key, node) in nestedMembers { all[key] = node.frozen }
            return .object(all)
        case .array:
            guard !nestedElements.isEmpty else { return .array(elements) }
            var all = elements
            for (index, node) in nestedElements { all[index] = node.frozen }
            return .array(all)
        }
    }

    /// Holds `value` from now on, whatever it held.
    func set(_ value: JSONValue) {
        kind = .value
        self.value = value
    }

    /// Becomes an empty object unless it is one already.
    func makeObject() {
        guard kind != .object else { return }
        kind = .object
        members = []
        members.reserveCapacity(8)
        nestedMembers = [:]
    }

    /// Becomes an empty array unless it is one already.
    func makeArray() {
        guard kind != .array else { return }
        kind = .array
        elements = []
        nestedElements = []
    }

    /// Sets the member `key` of this object (which takes over a nested node's place, as its value).
    func set(_ value: JSONValue, forKey key: String) {
        precondition(kind == .object, "keyed container over a non-object")
        if !nestedMembers.isEmpty, let node = nestedMembers[key] { node.set(value) } else { members.append((key, value)) }
    }

    /// The node of the member `key` of this object, made (holding the member's value, if any) when there is none.
    func child(forKey key: String) -> EncodingNode {
        precondition(kind == .object, "keyed container over a non-object")
        if let existing = nestedMembers[key] { return existing }
        let child = EncodingNode()
        if let last = members.lastIndex(where: { $0.key == key }) {
            child.set(members[last].value)
            members.removeAll { $0.key == key }
        }
        nestedMembers[key] = child
        return child
    }

    /// Appends an element to this array.
    func append(_ value: JSONValue) {
        precondition(kind == .array, "unkeyed container over a non-array")
        elements.append(value)
    }

    /// Appends an element with a node of its own to this array.
    func appendChild() -> EncodingNode {
        precondition(kind == .array, "unkeyed container over a non-array")
        let child = EncodingNode()
        nestedElements.append((elements.count, child))
        elements.append(.null)
        return child
    }

    /// The JSON of `value`. With `memo`, a value decoded and encoded before is not encoded again;
    /// with `positions` (which need every collection encoded), there is no memo.
    static func encode<T: Encodable>(
        _ value: T, at path: CodingPathLink, noting positions: CanonicalOrderPositions?, memo: RoundTripTable?, lookUp: Bool = true
    ) throws -> JSONValue {
        if let special = try specialValue(value, at: path) { return special }
        guard let memo, lookUp else { return try encodeAnew(value, at: path, noting: positions, memo: memo) }
        return try memo.encode(value) { previous in
            if let previous, let array = memo.elementwiseEncodable(T.self) {
                return try array.encodeElements(of: value, at: path, memo: memo, reusing: previous)
            }
            return try encodeAnew(value, at: path, noting: nil, memo: memo)
        }
    }

    private static func encodeAnew<T: Encodable>(
        _ value: T, at path: CodingPathLink, noting positions: CanonicalOrderPositions?, memo: RoundTripTable?
    ) throws -> JSONValue {
        let node = EncodingNode()
        if let positions, let unordered = value as? any HashOrderedCollection {
            let codingPath = path.codingPath
            positions.enter(codingPath)
            try value.encode(to: NodeEncoder(node: node, path: path, positions: positions, memo: nil))
            positions.leave(codingPath)
            return type(of: unordered).canonicalOrder(node.frozen)
        }
        try value.encode(to: NodeEncoder(node: node, path: path, positions: positions, memo: memo))
        // Only what encoded an array can be a hash-ordered collection to put in order: the cast
        // (a conformance lookup) is left out for everything else.
        guard node.kind == .array, let unordered = value as? any HashOrderedCollection else { return node.frozen }
        return type(of: unordered).canonicalOrder(node.frozen)
    }

    /// The JSON of the Foundation types the encoder writes its own way, nil for any other type
    /// (told by identity: a cast to each costs a conformance lookup per value; the value of a type
    /// told is taken by `identityCast`, not `as!`, which the runtime would look up too).
    private static func specialValue<T: Encodable>(_ value: T, at path: CodingPathLink) throws -> JSONValue? {
        if T.self == Date.self { return .string(ISO8601.string(from: identityCast(value, to: Date.self))) }
        if T.self == URL.self { return .string(identityCast(value, to: URL.self).absoluteString) }
        if T.self == UUID.self { return .string(identityCast(value, to: UUID.self).uuidString) }
        if T.self == Data.self { return .string(identityCast(value, to: Data.self).base64EncodedString()) }
        if T.self == Decimal.self {
            let decimal = identityCast(value, to: Decimal.self)
            guard let number = JSONValue.number(text: decimal.description) else {
                throw EncodingError.invalidValue(decimal, .init(codingPath: path.codingPath, debugDescription: "\(decimal) has no JSON form"))
            }
            return number
        }
        return nil
    }

    static func number(_ value: Double, at path: @autoclosure () -> CodingPathLink) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: path().codingPath, debugDescription: "\(value) has no JSON form"))
        }
        return .double(value)
    }

    /// A `Float` in its own shortest form (`0.1`, not the double nearest to the float `0.1`).
    static func number(_ value: Float, at path: @autoclosure () -> CodingPathLink) throws -> JSONValue {
        guard value.isFinite, let number = JSONValue.number(text: "\(value)") else {
            throw EncodingError.invalidValue(value, .init(codingPath: path().codingPath, debugDescription: "\(value) has no JSON form"))
        }
        return number
    }

    static func unsigned(_ value: UInt64) -> JSONValue {
        Int64(exactly: value).map(JSONValue.integer) ?? .exactNumber(String(value))
    }
}

private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let path: CodingPathLink
    let positions: CanonicalOrderPositions?
    let memo: RoundTripTable?
    var codingPath: [any CodingKey] {
        memo?.noteCodingPathRead()
        return path.codingPath
    }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        node.makeObject()
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, path: path, positions: positions, memo: memo))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        node.makeArray()
        return UnkeyedContainer(node: node, path: path, positions: positions, memo: memo)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(node: node, path: path, positions: positions, memo: memo)
    }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let path: CodingPathLink
    let positions: CanonicalOrderPositions?
    let memo: RoundTripTable?
    var codingPath: [any CodingKey] {
        memo?.noteCodingPathRead()
        return path.codingPath
    }

    private func set(_ value: JSONValue, for key: Key) {
        node.set(value, forKey: key.stringValue)
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try EncodingNode.number(value, at: .key(key, parent: path)), for: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try EncodingNode.number(value, at: .key(key, parent: path)), for: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.integer(value), for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(EncodingNode.unsigned(UInt64(value)), for: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(EncodingNode.unsigned(value), for: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try EncodingNode.encode(value, at: .key(key, parent: path), noting: positions, memo: memo), for: key)
    }

    // Nil optionals become explicit nulls, so every field is visible to editors.
    mutating func encodeIfPresent(_ value: Bool?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: String?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Double?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Float?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: Int64?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt8?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt16?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt32?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent(_ value: UInt64?, forKey key: Key) throws { try encodeOptional(value, key) }
    mutating func encodeIfPresent<T: Encodable>(_ value: T?, forKey key: Key) throws { try encodeOptional(value, key) }

    private mutating func encodeOptional<T: Encodable>(_ value: T?, _ key: Key) throws {
        if let value { try encode(value, forKey: key) } else { set(.null, for: key) }
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        encoder(for: key).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        encoder(for: key).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: node.child(forKey: Key(stringValue: "super")!.stringValue), path: path, positions: positions, memo: memo)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        encoder(for: key)
    }

    private func encoder(for key: Key) -> NodeEncoder {
        NodeEncoder(node: node.child(forKey: key.stringValue), path: .key(key, parent: path), positions: positions, memo: memo)
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let path: CodingPathLink
    let positions: CanonicalOrderPositions?
    let memo: RoundTripTable?
    var codingPath: [any CodingKey] {
        memo?.noteCodingPathRead()
        return path.codingPath
    }

    var count: Int { node.kind == .array ? node.elements.count : 0 }

    /// The path of the element appended next.
    private var next: CodingPathLink { .index(count, parent: path) }

    mutating func encodeNil() throws { node.append(.null) }
    mutating func encode(_ value: Bool) throws { node.append(.bool(value)) }
    mutating func encode(_ value: String) throws { node.append(.string(value)) }
    mutating func encode(_ value: Double) throws { node.append(try EncodingNode.number(value, at: next)) }
    mutating func encode(_ value: Int) throws { node.append(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { node.append(.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.append(try EncodingNode.encode(value, at: next, noting: positions, memo: memo))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let path = next
        return NodeEncoder(node: node.appendChild(), path: path, positions: positions, memo: memo).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let path = next
        return NodeEncoder(node: node.appendChild(), path: path, positions: positions, memo: memo).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let path = next
        return NodeEncoder(node: node.appendChild(), path: path, positions: positions, memo: memo)
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let path: CodingPathLink
    let positions: CanonicalOrderPositions?
    let memo: RoundTripTable?
    var codingPath: [any CodingKey] {
        memo?.noteCodingPathRead()
        return path.codingPath
    }

    mutating func encodeNil() throws { node.set(.null) }
    mutating func encode(_ value: Bool) throws { node.set(.bool(value)) }
    mutating func encode(_ value: String) throws { node.set(.string(value)) }
    mutating func encode(_ value: Double) throws { node.set(try EncodingNode.number(value, at: path)) }
    mutating func encode(_ value: Float) throws { node.set(try EncodingNode.number(value, at: path)) }
    mutating func encode(_ value: Int) throws { node.set(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { node.set(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { node.set(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { node.set(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { node.set(.integer(value)) }
    mutating func encode(_ value: UInt8) throws { node.set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { node.set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { node.set(.integer(Int64(value))) }
    mutating func encode(_ value: UInt) throws { try encode(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws { node.set(EncodingNode.unsigned(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.set(try EncodingNode.encode(value, at: path, noting: positions, memo: memo))
    }
}

/// An array the encoder encodes itself when its memo knows the JSON of some of its elements already
/// (`RoundTripTable.encode`), as `Array.encode(to:)` would: element `i` at JSON position `i`, the
/// others encoded with the path ending in their index.
protocol ElementwiseEncodable {
    func encodeElements(at path: CodingPathLink, memo: RoundTripTable, reusing previous: PreviousElements) throws -> JSONValue
}

extension ElementwiseEncodable {
    /// `value`'s elements encoded, `value` being of this type (the memo's answer for `T`): neither a
    /// cast nor a conformance for the runtime to look up, as `value as? any ElementwiseEncodable` did.
    static func encodeElements<T>(of value: T, at path: CodingPathLink, memo: RoundTripTable, reusing previous: PreviousElements) throws -> JSONValue {
        try identityCast(value, to: Self.self).encodeElements(at: path, memo: memo, reusing: previous)
    }
}

extension Array: ElementwiseEncodable where Element: Encodable {
    func encodeElements(at path: CodingPathLink, memo: RoundTripTable, reusing previous: PreviousElements) throws -> JSONValue {
        // By index: an element whose JSON is known is not even copied (a copy of an element of a
        // type this generic code does not know goes through its value witnesses).
        .array(try previous.elements(count: count) { index in
            try EncodingNode.encode(self[index], at: .index(index, parent: path), noting: nil, memo: memo)
        })
    }
}
