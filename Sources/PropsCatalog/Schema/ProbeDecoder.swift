/// A `Decoder` that records what a type's `init(from:)` asks for, to learn the type's schema.
///
/// With a sample it behaves like a JSON decoder reading the sample (strict about kinds, so custom
/// decoders that try one form and then another take the right branch). Without one it makes values
/// up: keyed containers contain every key and no nulls, unkeyed containers have one element,
/// strings are "", numbers 0, booleans false. Values of nested types come from `SchemaProbe`.
final class ProbeDecoder: Decoder {
    let sample: JSONValue?
    let probe: SchemaProbe
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    private var keyed: KeyedRecord?
    private var unkeyed: UnkeyedRecord?
    private var single: SingleRecord?
    private var firstRequest: Request?

    private enum Request { case keyed, unkeyed, single }

    init(sample: JSONValue?, probe: SchemaProbe, codingPath: [any CodingKey]) {
        self.sample = sample
        self.probe = probe
        self.codingPath = codingPath
    }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        let members: [String: JSONValue]?
        switch sample {
        case nil: members = nil
        case .object(let values)?: members = values
        case let other?: throw Self.mismatch([String: JSONValue].self, expected: "an object", found: other, codingPath)
        }
        firstRequest = firstRequest ?? .keyed
        let record = keyed ?? KeyedRecord()
        keyed = record
        return KeyedDecodingContainer(ProbeKeyedContainer<Key>(record: record, members: members, probe: probe, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let elements: [JSONValue]?
        switch sample {
        case nil: elements = nil
        case .array(let values)?: elements = values
        case let other?: throw Self.mismatch([JSONValue].self, expected: "an array", found: other, codingPath)
        }
        firstRequest = firstRequest ?? .unkeyed
        let record = unkeyed ?? UnkeyedRecord()
        unkeyed = record
        return ProbeUnkeyedContainer(record: record, elements: elements, probe: probe, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        firstRequest = firstRequest ?? .single
        let record = single ?? SingleRecord()
        single = record
        return ProbeSingleValueContainer(record: record, sample: sample, probe: probe, codingPath: codingPath)
    }

    /// The schema of what `init(from:)` asked for. With a sample, the container matching the
    /// sample's kind tells (a decoder may have tried others first); without, the first one asked for.
    /// After a failure, only what was learned before it counts, and nothing learned is `unknown`.
    func schema(name: String, failed: Bool) -> EditorSchema {
        var request = firstRequest
        switch sample {
        case .object?: if keyed != nil { request = .keyed }
        case .array?: if unkeyed != nil { request = .unkeyed }
        case .some: if single != nil { request = .single }
        case nil: break
        }
        switch request {
        case nil:
            // Asked for nothing: an empty struct, unless it failed before asking.
            return failed ? .unknown : .object(name: name, fields: [])
        case .keyed:
            let schema = keyed!.schema(name: name, failed: failed)
            if failed, case .object(_, let fields) = schema, fields.isEmpty { return .unknown }
            return schema
        case .unkeyed:
            return unkeyed!.schema()
        case .single:
            return single!.schema()
        }
    }

    static func mismatch(_ type: Any.Type, expected: String, found: JSONValue, _ codingPath: [any CodingKey]) -> DecodingError {
        if found == .null {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found null"))
        }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "expected \(expected), found \(found.kindDescription)"))
    }
}

// MARK: - Records

/// Where a field's or element's schema comes from: known at once, or from a container or decoder
/// that the caller goes on using after it was handed out.
private enum Source {
    case schema(EditorSchema)
    case keyed(KeyedRecord, name: String)
    case unkeyed(UnkeyedRecord)
    case decoder(ProbeDecoder, name: String)

    var schema: EditorSchema {
        switch self {
        case .schema(let schema): schema
        case .keyed(let record, let name): record.schema(name: name)
        case .unkeyed(let record): record.schema()
        case .decoder(let decoder, let name): decoder.schema(name: name, failed: false)
        }
    }

    var isNestedKeyed: Bool {
        if case .keyed = self { return true }
        return false
    }

    static func merged(_ sources: [Source]) -> EditorSchema {
        sources.reduce(EditorSchema.unknown) { EditorSchema.merge($0, $1.schema) }
    }
}

/// What was asked of a keyed container: keys in first-use order, and whether `allKeys` was.
final class KeyedRecord {
    private struct Entry {
        var key: String
        var sources: [Source] = []
        var isOptional = false
    }

    private var entries: [Entry] = []
    /// The keys `allKeys` answered, nil when it was never called.
    private var listedKeys: [String]?

    fileprivate func add(_ key: String, _ source: Source?, optional: Bool = false) {
        let index: Int
        if let existing = entries.firstIndex(where: { $0.key == key }) {
            index = existing
        } else {
            entries.append(Entry(key: key))
            index = entries.count - 1
        }
        if let source { entries[index].sources.append(source) }
        if optional { entries[index].isOptional = true }
    }

    func listed(_ keys: [String]) {
        var all = listedKeys ?? []
        all.append(contentsOf: keys.filter { !all.contains($0) })
        listedKeys = all
    }

    var fields: [EditorSchema.Field] {
        entries.map { entry in
            let schema = Source.merged(entry.sources)
            return EditorSchema.Field(name: entry.key, schema: entry.isOptional ? .nullable(schema) : schema)
        }
    }

    /// A union when `allKeys` was asked and every key was only opened as a nested keyed container
    /// (a synthesized enum `init(from:)`); an object otherwise. When no key was used at all, it is
    /// a union if keys were listed, or if decoding failed (no sample: no key to pick a case with);
    /// a field-less struct that checks `allKeys` succeeds on `{}`.
    func schema(name: String, failed: Bool = false) -> EditorSchema {
        let isUnion: Bool
        if let listedKeys, entries.isEmpty {
            isUnion = !listedKeys.isEmpty || failed
        } else {
            isUnion = listedKeys != nil
                && entries.allSatisfy { !$0.isOptional && !$0.sources.isEmpty && $0.sources.allSatisfy(\.isNestedKeyed) }
        }
        guard isUnion else { return .object(name: name, fields: fields) }
        var names = listedKeys ?? []
        names.append(contentsOf: entries.map(\.key).filter { !names.contains($0) })
        let cases = names.map { caseName in
            let payload = entries.first { $0.key == caseName }?.sources ?? []
            var fields: [EditorSchema.Field] = []
            for case .keyed(let record, _) in payload {
                fields = EditorSchema.mergeFields(fields, record.fields)
            }
            return EditorSchema.UnionCase(name: caseName, fields: fields)
        }
        return .union(name: name, cases: cases)
    }
}

/// What was read from an unkeyed container: every element's schema, merged into `items`.
final class UnkeyedRecord {
    fileprivate var sources: [Source] = []
    var hasNulls = false

    func schema() -> EditorSchema {
        let items = Source.merged(sources)
        return .array(items: hasNulls ? .nullable(items) : items)
    }
}

/// What was read from a single-value container.
final class SingleRecord {
    fileprivate var sources: [Source] = []
    var askedForNull = false

    func schema() -> EditorSchema {
        let schema = Source.merged(sources)
        return askedForNull ? .nullable(schema) : schema
    }
}

// MARK: - Containers

private struct ProbeKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let record: KeyedRecord
    /// The sample object's members; nil when values are made up.
    let members: [String: JSONValue]?
    let probe: SchemaProbe
    let codingPath: [any CodingKey]

    var allKeys: [Key] {
        // Without a sample there are no keys to give: a union cannot pick a case and fails, which
        // the probe turns into a union with the cases other samples of the type show.
        let keys = (members?.keys.sorted() ?? []).compactMap(Key.init(stringValue:))
        record.listed(keys.map(\.stringValue))
        return keys
    }

    func contains(_ key: Key) -> Bool {
        guard let members else { return true }
        return members[key.stringValue] != nil
    }

    func decodeNil(forKey key: Key) throws -> Bool {
        record.add(key.stringValue, nil, optional: true)
        guard let members else { return false }
        guard let value = members[key.stringValue] else { return true }
        return value == .null
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        // A key missing from the sample is made up rather than refused: the schema is the type's.
        let result = probe.probe(T.self, sample: members?[key.stringValue], codingPath: codingPath + [key])
        record.add(key.stringValue, .schema(result.schema))
        return try result.value.get()
    }

    func decodeIfPresent<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T? {
        let sample = members?[key.stringValue]
        guard members != nil, let sample, sample != .null else {
            // Absent or null, or nothing to follow: learn the wrapped type from made-up values.
            let result = probe.probe(T.self, sample: nil, codingPath: codingPath + [key])
            record.add(key.stringValue, .schema(result.schema), optional: true)
            return nil
        }
        let result = probe.probe(T.self, sample: sample, codingPath: codingPath + [key])
        record.add(key.stringValue, .schema(result.schema), optional: true)
        return try? result.value.get()
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool { try decodeGeneric(type, key) }
    func decode(_ type: String.Type, forKey key: Key) throws -> String { try decodeGeneric(type, key) }
    func decode(_ type: Double.Type, forKey key: Key) throws -> Double { try decodeGeneric(type, key) }
    func decode(_ type: Float.Type, forKey key: Key) throws -> Float { try decodeGeneric(type, key) }
    func decode(_ type: Int.Type, forKey key: Key) throws -> Int { try decodeGeneric(type, key) }
    func decode(_ type: Int8.Type, forKey key: Key) throws -> Int8 { try decodeGeneric(type, key) }
    func decode(_ type: Int16.Type, forKey key: Key) throws -> Int16 { try decodeGeneric(type, key) }
    func decode(_ type: Int32.Type, forKey key: Key) throws -> Int32 { try decodeGeneric(type, key) }
    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 { try decodeGeneric(type, key) }
    func decode(_ type: UInt.Type, forKey key: Key) throws -> UInt { try decodeGeneric(type, key) }
    func decode(_ type: UInt8.Type, forKey key: Key) throws -> UInt8 { try decodeGeneric(type, key) }
    func decode(_ type: UInt16.Type, forKey key: Key) throws -> UInt16 { try decodeGeneric(type, key) }
    func decode(_ type: UInt32.Type, forKey key: Key) throws -> UInt32 { try decodeGeneric(type, key) }
    func decode(_ type: UInt64.Type, forKey key: Key) throws -> UInt64 { try decodeGeneric(type, key) }
    func decode(_ type: Int128.Type, forKey key: Key) throws -> Int128 { try decodeGeneric(type, key) }
    func decode(_ type: UInt128.Type, forKey key: Key) throws -> UInt128 { try decodeGeneric(type, key) }

    func decodeIfPresent(_ type: Bool.Type, forKey key: Key) throws -> Bool? { try decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: String.Type, forKey key: Key) throws -> String? { try decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: Double.Type, forKey key: Key) throws -> Double? { try decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: Float.Type, forKey key: Key) throws -> Float? { try decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: Int.Type, forKey key: Key) throws -> Int? { try decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: Int8.Type, forKey key: Key) throws -> Int8? { try decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: Int16.Type, forKey key: Key) throws -> Int16? { try decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: Int32.Type, forKey key: Key) throws -> Int32? { try decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: Int64.Type, forKey key: Key) throws -> Int64? { try decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: UInt.Type, forKey key: Key) throws -> UInt? { try decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: UInt8.Type, forKey key: Key) throws -> UInt8? { try decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: UInt16.Type, forKey key: Key) throws -> UInt16? { try decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: UInt32.Type, forKey key: Key) throws -> UInt32? { try decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: UInt64.Type, forKey key: Key) throws -> UInt64? { try decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: Int128.Type, forKey key: Key) throws -> Int128? { try decodeIfPresentGeneric(type, key) }
    func decodeIfPresent(_ type: UInt128.Type, forKey key: Key) throws -> UInt128? { try decodeIfPresentGeneric(type, key) }

    /// The generic entry points, under names the concrete overloads above can call without recursing.
    private func decodeGeneric<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T {
        try decode(type, forKey: key)
    }

    private func decodeIfPresentGeneric<T: Decodable>(_ type: T.Type, _ key: Key) throws -> T? {
        try decodeIfPresent(type, forKey: key)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        let nested: [String: JSONValue]?
        switch members?[key.stringValue] {
        case nil: nested = nil
        case .object(let values)?: nested = values
        case let other?: throw ProbeDecoder.mismatch([String: JSONValue].self, expected: "an object", found: other, codingPath + [key])
        }
        let child = KeyedRecord()
        record.add(key.stringValue, .keyed(child, name: key.stringValue))
        return KeyedDecodingContainer(ProbeKeyedContainer<NestedKey>(record: child, members: nested, probe: probe, codingPath: codingPath + [key]))
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        let elements: [JSONValue]?
        switch members?[key.stringValue] {
        case nil: elements = nil
        case .array(let values)?: elements = values
        case let other?: throw ProbeDecoder.mismatch([JSONValue].self, expected: "an array", found: other, codingPath + [key])
        }
        let child = UnkeyedRecord()
        record.add(key.stringValue, .unkeyed(child))
        return ProbeUnkeyedContainer(record: child, elements: elements, probe: probe, codingPath: codingPath + [key])
    }

    func superDecoder() throws -> any Decoder {
        superDecoder(named: "super", codingPath: codingPath + [NameKey("super")])
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        superDecoder(named: key.stringValue, codingPath: codingPath + [key])
    }

    private func superDecoder(named name: String, codingPath: [any CodingKey]) -> any Decoder {
        let decoder = ProbeDecoder(sample: members?[name], probe: probe, codingPath: codingPath)
        record.add(name, .decoder(decoder, name: name))
        return decoder
    }
}

private struct ProbeUnkeyedContainer: UnkeyedDecodingContainer {
    let record: UnkeyedRecord
    /// The sample array; nil when values are made up (then there is one element).
    let elements: [JSONValue]?
    let probe: SchemaProbe
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(record: UnkeyedRecord, elements: [JSONValue]?, probe: SchemaProbe, codingPath: [any CodingKey]) {
        self.record = record
        self.elements = elements
        self.probe = probe
        self.codingPath = codingPath
    }

    var count: Int? { elements?.count ?? 1 }
    var isAtEnd: Bool { currentIndex >= count! }

    /// The next element's sample: nil to make one up; throws past the end of a sample.
    private func nextSample<T>(_ type: T.Type) throws -> JSONValue? {
        guard let elements else { return nil }
        guard currentIndex < elements.count else {
            throw DecodingError.valueNotFound(T.self, .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "unkeyed container is at end"))
        }
        return elements[currentIndex]
    }

    mutating func decodeNil() throws -> Bool {
        record.hasNulls = true
        guard let sample = try nextSample(JSONValue.self) else { return false }
        guard sample == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let sample = try nextSample(T.self)
        let result = probe.probe(T.self, sample: sample, codingPath: codingPath + [IndexKey(currentIndex)])
        record.sources.append(.schema(result.schema))
        // Made-up elements always move on, so a loop over a failing element still ends.
        if elements == nil { currentIndex += 1 }
        let value = try result.value.get()
        if elements != nil { currentIndex += 1 }
        return value
    }

    mutating func decode(_ type: Bool.Type) throws -> Bool { try decodeGeneric(type) }
    mutating func decode(_ type: String.Type) throws -> String { try decodeGeneric(type) }
    mutating func decode(_ type: Double.Type) throws -> Double { try decodeGeneric(type) }
    mutating func decode(_ type: Float.Type) throws -> Float { try decodeGeneric(type) }
    mutating func decode(_ type: Int.Type) throws -> Int { try decodeGeneric(type) }
    mutating func decode(_ type: Int8.Type) throws -> Int8 { try decodeGeneric(type) }
    mutating func decode(_ type: Int16.Type) throws -> Int16 { try decodeGeneric(type) }
    mutating func decode(_ type: Int32.Type) throws -> Int32 { try decodeGeneric(type) }
    mutating func decode(_ type: Int64.Type) throws -> Int64 { try decodeGeneric(type) }
    mutating func decode(_ type: UInt.Type) throws -> UInt { try decodeGeneric(type) }
    mutating func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeGeneric(type) }
    mutating func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeGeneric(type) }
    mutating func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeGeneric(type) }
    mutating func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeGeneric(type) }
    mutating func decode(_ type: Int128.Type) throws -> Int128 { try decodeGeneric(type) }
    mutating func decode(_ type: UInt128.Type) throws -> UInt128 { try decodeGeneric(type) }

    private mutating func decodeGeneric<T: Decodable>(_ type: T.Type) throws -> T {
        try decode(type)
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let members: [String: JSONValue]?
        switch try nextSample([String: JSONValue].self) {
        case nil: members = nil
        case .object(let values)?: members = values
        case let other?: throw ProbeDecoder.mismatch([String: JSONValue].self, expected: "an object", found: other, codingPath + [IndexKey(currentIndex)])
        }
        let child = KeyedRecord()
        record.sources.append(.keyed(child, name: ""))
        let path = codingPath + [IndexKey(currentIndex)]
        currentIndex += 1
        return KeyedDecodingContainer(ProbeKeyedContainer<NestedKey>(record: child, members: members, probe: probe, codingPath: path))
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let elements: [JSONValue]?
        switch try nextSample([JSONValue].self) {
        case nil: elements = nil
        case .array(let values)?: elements = values
        case let other?: throw ProbeDecoder.mismatch([JSONValue].self, expected: "an array", found: other, codingPath + [IndexKey(currentIndex)])
        }
        let child = UnkeyedRecord()
        record.sources.append(.unkeyed(child))
        let path = codingPath + [IndexKey(currentIndex)]
        currentIndex += 1
        return ProbeUnkeyedContainer(record: child, elements: elements, probe: probe, codingPath: path)
    }

    mutating func superDecoder() throws -> any Decoder {
        let sample = try nextSample(JSONValue.self)
        let decoder = ProbeDecoder(sample: sample, probe: probe, codingPath: codingPath + [IndexKey(currentIndex)])
        record.sources.append(.decoder(decoder, name: ""))
        currentIndex += 1
        return decoder
    }
}

private struct ProbeSingleValueContainer: SingleValueDecodingContainer {
    let record: SingleRecord
    let sample: JSONValue?
    let probe: SchemaProbe
    let codingPath: [any CodingKey]

    func decodeNil() -> Bool {
        record.askedForNull = true
        return sample == .null
    }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let result = probe.probe(T.self, sample: sample, codingPath: codingPath)
        record.sources.append(.schema(result.schema))
        return try result.value.get()
    }

    func decode(_ type: Bool.Type) throws -> Bool { try decodeGeneric(type) }
    func decode(_ type: String.Type) throws -> String { try decodeGeneric(type) }
    func decode(_ type: Double.Type) throws -> Double { try decodeGeneric(type) }
    func decode(_ type: Float.Type) throws -> Float { try decodeGeneric(type) }
    func decode(_ type: Int.Type) throws -> Int { try decodeGeneric(type) }
    func decode(_ type: Int8.Type) throws -> Int8 { try decodeGeneric(type) }
    func decode(_ type: Int16.Type) throws -> Int16 { try decodeGeneric(type) }
    func decode(_ type: Int32.Type) throws -> Int32 { try decodeGeneric(type) }
    func decode(_ type: Int64.Type) throws -> Int64 { try decodeGeneric(type) }
    func decode(_ type: UInt.Type) throws -> UInt { try decodeGeneric(type) }
    func decode(_ type: UInt8.Type) throws -> UInt8 { try decodeGeneric(type) }
    func decode(_ type: UInt16.Type) throws -> UInt16 { try decodeGeneric(type) }
    func decode(_ type: UInt32.Type) throws -> UInt32 { try decodeGeneric(type) }
    func decode(_ type: UInt64.Type) throws -> UInt64 { try decodeGeneric(type) }
    func decode(_ type: Int128.Type) throws -> Int128 { try decodeGeneric(type) }
    func decode(_ type: UInt128.Type) throws -> UInt128 { try decodeGeneric(type) }

    private func decodeGeneric<T: Decodable>(_ type: T.Type) throws -> T {
        try decode(type)
    }
}
