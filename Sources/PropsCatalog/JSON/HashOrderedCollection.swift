/// A collection that Swift encodes in hash order, which changes from process to process (hashing
/// is seeded per process): `Set`, and `Dictionary` whose keys are not `String` or `Int` (written
/// as a flat `[key, value, key, value]` array). `JSONValueEncoder` puts what they encode into a
/// canonical order, so that goldens, exports and states are byte-identical in every run.
protocol HashOrderedCollection {
    /// `encoded` (what the collection encoded into) in canonical order.
    static func canonicalOrder(_ encoded: JSONValue) -> JSONValue
}

extension Set: HashOrderedCollection {
    /// Elements sorted by their serialized bytes.
    static func canonicalOrder(_ encoded: JSONValue) -> JSONValue {
        guard case .array(let elements) = encoded else { return encoded }
        return .array(elements.map { ($0.serializedBytes(), $0) }.sorted { $0.0.lexicographicallyPrecedes($1.0) }.map(\.1))
    }
}

extension Dictionary: HashOrderedCollection {
    /// Key-value pairs sorted by the serialized bytes of the key. Keyed objects need nothing:
    /// objects are always serialized with sorted keys.
    static func canonicalOrder(_ encoded: JSONValue) -> JSONValue {
        guard case .array(let flat) = encoded, flat.count % 2 == 0 else { return encoded }
        let pairs = stride(from: 0, to: flat.count, by: 2).map { (flat[$0].serializedBytes(), flat[$0], flat[$0 + 1]) }
        return .array(pairs.sorted { $0.0.lexicographicallyPrecedes($1.0) }.flatMap { [$0.1, $0.2] })
    }
}
