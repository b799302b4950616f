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
        try EncodingNode.encode(value, codingPath: [])
    }

    /// The JSON value of `value`, and the places where the encoder put a hash-ordered collection
    /// (a `Set`, a dictionary with keys that are not strings) into canonical order: there, and only
    /// there, the order of an array is not part of the value. A place is a pattern: below such a
    /// collection the element's position is `*`, since it depends on the order the collection had.
    package func encodeNotingCanonicalOrder(_ value: some Encodable) throws -> (json: JSONValue, reordered: Set<JSONPointer>) {
        let positions = CanonicalOrderPositions()
        let json = try CanonicalOrderPositions.$current.withValue(positions) {
            try EncodingNode.encode(value, codingPath: [])
        }
        return (json, positions.patterns)
    }
}

/// Where one encoding put hash-ordered collections into canonical order. Bound for the length of
/// one synchronous `encodeNotingCanonicalOrder` call, on its thread only.
private final class CanonicalOrderPositions: @unchecked Sendable {  // one thread, one call: no sharing
    @TaskLocal static var current: CanonicalOrderPositions?
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

/// A mutable tree that containers write into before it is frozen into a `JSONValue`.
private final class EncodingNode {
    enum Content {
        case empty
        case value(JSONValue)
        case object([String: EncodingNode], order: [String])
        case array([EncodingNode])
    }

    var content: Content = .empty

    var frozen: JSONValue {
        switch content {
        case .empty: return .object([:])
        case .value(let value): return value
        // Closures, not the key path `\.frozen`: a key path is instantiated on every call.
        case .object(let members, _): return .object(members.mapValues { $0.frozen })
        case .array(let elements): return .array(elements.map { $0.frozen })
        }
    }

    static func encode(_ value: some Encodable, codingPath: [any CodingKey]) throws -> JSONValue {
        if let special = try specialValue(value, codingPath: codingPath) { return special }
        let node = EncodingNode()
        guard let unordered = value as? any HashOrderedCollection else {
            try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
            return node.frozen
        }
        let positions = CanonicalOrderPositions.current
        positions?.enter(codingPath)
        try value.encode(to: NodeEncoder(node: node, codingPath: codingPath))
        positions?.leave(codingPath)
        return type(of: unordered).canonicalOrder(node.frozen)
    }

    private static func specialValue(_ value: some Encodable, codingPath: [any CodingKey]) throws -> JSONValue? {
        switch value {
        case let date as Date: return .string(ISO8601.string(from: date))
        case let url as URL: return .string(url.absoluteString)
        case let uuid as UUID: return .string(uuid.uuidString)
        case let data as Data: return .string(data.base64EncodedString())
        case let decimal as Decimal:
            guard let number = JSONValue.number(text: decimal.description) else {
                throw EncodingError.invalidValue(decimal, .init(codingPath: codingPath, debugDescription: "\(decimal) has no JSON form"))
            }
            return number
        default: return nil
        }
    }

    static func number(_ value: Double, codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) has no JSON form"))
        }
        return .double(value)
    }

    /// A `Float` in its own shortest form (`0.1`, not the double nearest to the float `0.1`).
    static func number(_ value: Float, codingPath: [any CodingKey]) throws -> JSONValue {
        guard value.isFinite, let number = JSONValue.number(text: "\(value)") else {
            throw EncodingError.invalidValue(value, .init(codingPath: codingPath, debugDescription: "\(value) has no JSON form"))
        }
        return number
    }
}

private struct NodeEncoder: Encoder {
    let node: EncodingNode
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) -> KeyedEncodingContainer<Key> {
        if case .object = node.content {} else { node.content = .object([:], order: []) }
        return KeyedEncodingContainer(KeyedContainer<Key>(node: node, codingPath: codingPath))
    }

    func unkeyedContainer() -> any UnkeyedEncodingContainer {
        if case .array = node.content {} else { node.content = .array([]) }
        return UnkeyedContainer(node: node, codingPath: codingPath)
    }

    func singleValueContainer() -> any SingleValueEncodingContainer {
        SingleContainer(node: node, codingPath: codingPath)
    }
}

private struct AnyKey: CodingKey {
    var stringValue: String
    var intValue: Int?
    init(stringValue: String) { self.stringValue = stringValue }
    init(intValue: Int) { self.stringValue = String(intValue); self.intValue = intValue }
}

private struct KeyedContainer<Key: CodingKey>: KeyedEncodingContainerProtocol {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    private func set(_ value: JSONValue, for key: Key) {
        child(for: key).content = .value(value)
    }

    private func child(for key: Key) -> EncodingNode {
        guard case .object(var members, var order) = node.content else { fatalError("keyed container over a non-object") }
        if let existing = members[key.stringValue] { return existing }
        node.content = .empty  // the only reference left is `members`: grows in place instead of being copied
        let child = EncodingNode()
        members[key.stringValue] = child
        order.append(key.stringValue)
        node.content = .object(members, order: order)
        return child
    }

    mutating func encodeNil(forKey key: Key) throws { set(.null, for: key) }
    mutating func encode(_ value: Bool, forKey key: Key) throws { set(.bool(value), for: key) }
    mutating func encode(_ value: String, forKey key: Key) throws { set(.string(value), for: key) }
    mutating func encode(_ value: Double, forKey key: Key) throws { set(try EncodingNode.number(value, codingPath: codingPath + [key]), for: key) }
    mutating func encode(_ value: Float, forKey key: Key) throws { set(try EncodingNode.number(value, codingPath: codingPath + [key]), for: key) }
    mutating func encode(_ value: Int, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int8, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int16, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int32, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: Int64, forKey key: Key) throws { set(.integer(value), for: key) }
    mutating func encode(_ value: UInt, forKey key: Key) throws { set(unsigned(UInt64(value)), for: key) }
    mutating func encode(_ value: UInt8, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt16, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt32, forKey key: Key) throws { set(.integer(Int64(value)), for: key) }
    mutating func encode(_ value: UInt64, forKey key: Key) throws { set(unsigned(value), for: key) }

    mutating func encode<T: Encodable>(_ value: T, forKey key: Key) throws {
        set(try EncodingNode.encode(value, codingPath: codingPath + [key]), for: key)
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

    private func unsigned(_ value: UInt64) -> JSONValue {
        Int64(exactly: value).map(JSONValue.integer) ?? .exactNumber(String(value))
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type, forKey key: Key) -> KeyedEncodingContainer<NestedKey> {
        NodeEncoder(node: child(for: key), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer(forKey key: Key) -> any UnkeyedEncodingContainer {
        NodeEncoder(node: child(for: key), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        NodeEncoder(node: child(for: Key(stringValue: "super")!), codingPath: codingPath)
    }

    mutating func superEncoder(forKey key: Key) -> any Encoder {
        NodeEncoder(node: child(for: key), codingPath: codingPath + [key])
    }
}

private struct UnkeyedContainer: UnkeyedEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    var count: Int {
        if case .array(let elements) = node.content { return elements.count }
        return 0
    }

    private func appendNode() -> EncodingNode {
        guard case .array(var elements) = node.content else { fatalError("unkeyed container over a non-array") }
        node.content = .empty  // the only reference left is `elements`: appending copied the whole array before
        let child = EncodingNode()
        elements.append(child)
        node.content = .array(elements)
        return child
    }

    private var nextKey: any CodingKey { AnyKey(intValue: count) }

    mutating func encodeNil() throws { appendNode().content = .value(.null) }
    mutating func encode(_ value: Bool) throws { appendNode().content = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { appendNode().content = .value(.string(value)) }
    mutating func encode(_ value: Double) throws {
        let json = try EncodingNode.number(value, codingPath: codingPath + [nextKey])
        appendNode().content = .value(json)
    }
    mutating func encode(_ value: Int) throws { appendNode().content = .value(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { appendNode().content = .value(.integer(value)) }

    mutating func encode<T: Encodable>(_ value: T) throws {
        let json = try EncodingNode.encode(value, codingPath: codingPath + [nextKey])
        appendNode().content = .value(json)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy keyType: NestedKey.Type) -> KeyedEncodingContainer<NestedKey> {
        let key = nextKey
        return NodeEncoder(node: appendNode(), codingPath: codingPath + [key]).container(keyedBy: keyType)
    }

    mutating func nestedUnkeyedContainer() -> any UnkeyedEncodingContainer {
        let key = nextKey
        return NodeEncoder(node: appendNode(), codingPath: codingPath + [key]).unkeyedContainer()
    }

    mutating func superEncoder() -> any Encoder {
        let key = nextKey
        return NodeEncoder(node: appendNode(), codingPath: codingPath + [key])
    }
}

private struct SingleContainer: SingleValueEncodingContainer {
    let node: EncodingNode
    let codingPath: [any CodingKey]

    mutating func encodeNil() throws { node.content = .value(.null) }
    mutating func encode(_ value: Bool) throws { node.content = .value(.bool(value)) }
    mutating func encode(_ value: String) throws { node.content = .value(.string(value)) }
    mutating func encode(_ value: Double) throws { node.content = .value(try EncodingNode.number(value, codingPath: codingPath)) }
    mutating func encode(_ value: Float) throws { node.content = .value(try EncodingNode.number(value, codingPath: codingPath)) }
    mutating func encode(_ value: Int) throws { node.content = .value(.integer(Int64(value))) }
    mutating func encode(_ value: Int8) throws { node.content = .value(.integer(Int64(value))) }
    mutating func encode(_ value: Int16) throws { node.content = .value(.integer(Int64(value))) }
    mutating func encode(_ value: Int32) throws { node.content = .value(.integer(Int64(value))) }
    mutating func encode(_ value: Int64) throws { node.content = .value(.integer(value)) }
    mutating func encode(_ value: UInt8) throws { node.content = .value(.integer(Int64(value))) }
    mutating func encode(_ value: UInt16) throws { node.content = .value(.integer(Int64(value))) }
    mutating func encode(_ value: UInt32) throws { node.content = .value(.integer(Int64(value))) }
    mutating func encode(_ value: UInt) throws { try encode(UInt64(value)) }
    mutating func encode(_ value: UInt64) throws {
        node.content = .value(Int64(exactly: value).map(JSONValue.integer) ?? .exactNumber(String(value)))
    }

    mutating func encode<T: Encodable>(_ value: T) throws {
        node.content = .value(try EncodingNode.encode(value, codingPath: codingPath))
    }
}
