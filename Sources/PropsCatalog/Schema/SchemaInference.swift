import Foundation

extension EditorSchema {
    /// Infers the editor schema of `Props` by walking its `init(from:)` with a probing decoder.
    ///
    /// Where a sample has a value, the probe decodes from it (this is how unions learn their case
    /// names); where none has (a nil optional, an empty array), it makes up values so the walk still
    /// reaches the type's structure. The schemas of all samples are merged, then `hints` applied.
    /// Never throws and never loops: what cannot be learned is `unknown`.
    ///
    /// - Parameters:
    ///   - samples: Props values encoded by `JSONValueEncoder`, typically the variants.
    ///   - hints: editor hints keyed by schema path, e.g. `["/bio": .multiline]`.
    package static func infer<Props: Decodable>(_ type: Props.Type, samples: [JSONValue], hints: [String: FieldHint] = [:]) -> EditorSchema {
        infer(type, samples: samples, hints: hints, teachers: [])
    }

    /// `infer` that also learns from `teachers`: each probes other samples in the first pass (the
    /// variants of an embedded child component), so their types' union cases are known here too.
    static func infer<Props: Decodable>(
        _ type: Props.Type, samples: [JSONValue], hints: [String: FieldHint] = [:], teachers: [@Sendable (SchemaProbe) -> Void]
    ) -> EditorSchema {
        let context = SchemaProbe()
        // First pass: remember a few samples of every type met, so that places without a sample
        // (a nil optional, an empty array) can learn union cases from the type's other places.
        context.isCollecting = true
        for sample in samples {
            _ = context.probe(Props.self, sample: sample, codingPath: [])
        }
        for teacher in teachers { teacher(context) }
        context.isCollecting = false
        context.steps = 0
        var schema = EditorSchema.unknown
        if samples.isEmpty {
            schema = context.probe(Props.self, sample: nil, codingPath: []).schema
        }
        for sample in samples {
            schema = merge(schema, context.probe(Props.self, sample: sample, codingPath: []).schema)
        }
        return schema.applying(hints)
    }
}

/// What probing one value gave: the schema, and a value for the caller's `init(from:)` to use.
struct Probe<T> {
    var value: Result<T, any Error>
    var schema: EditorSchema

    static func failure(_ schema: EditorSchema, _ error: any Error) -> Probe {
        Probe(value: .failure(error), schema: schema)
    }
}

/// The error behind an `unknown`: the probe gave up (depth, recursion or effort limit).
struct ProbeLimit: Error {
    let reason: String
}

/// The state of one inference: limits, the types being probed, and samples remembered by type.
final class SchemaProbe {
    /// Nested user types deeper than this are `unknown`.
    let maxDepth = 48
    /// A type already being probed this many times from made-up values is `unknown` there: a
    /// recursive type is expanded twice beyond what its samples show, then stops.
    let maxRecursion = 2
    /// A type already being probed this many times in all is `unknown` there, sample or not: a
    /// recursive value is described this deep, so that a deep or bushy sample cannot make the
    /// schema huge.
    let maxNesting = 6
    /// The most probe steps of one pass, so that odd types cannot make inference slow.
    let maxSteps = 200_000
    /// The most remembered samples per type (union samples are kept one per case).
    let maxRememberedSamples = 4
    /// Only samples this small (in JSON values) are remembered: they are probed again elsewhere.
    let maxRememberedSize = 256

    var steps = 0
    var isCollecting = false
    /// The user types being probed, outermost first, and whether each follows a sample.
    private var stack: [(id: ObjectIdentifier, isMadeUp: Bool)] = []
    private var remembered: [ObjectIdentifier: [JSONValue]] = [:]
    /// Union schemas learned from the remembered samples of a type; `.some(nil)` while computing.
    private var unionMemo: [ObjectIdentifier: EditorSchema?] = [:]

    /// Probes `T` at `codingPath`, following `sample` when there is one and making values up otherwise.
    func probe<T: Decodable>(_ type: T.Type, sample: JSONValue?, codingPath: [any CodingKey]) -> Probe<T> {
        steps += 1
        guard steps <= maxSteps else {
            return .failure(.unknown, ProbeLimit(reason: "schema inference gave up: too many steps"))
        }
        if let probe = Self.primitive(T.self, sample: sample, codingPath: codingPath) { return probe }
        if let probe = Self.foundation(T.self, sample: sample, codingPath: codingPath) { return probe }
        if let optional = T.self as? any OptionalProbing.Type {
            return Self.cast(optional.probeOptional(sample: sample, probe: self, codingPath: codingPath), codingPath)
        }
        if let sequence = T.self as? any SequenceProbing.Type {
            return Self.cast(sequence.probeSequence(sample: sample, probe: self, codingPath: codingPath), codingPath)
        }
        if let dictionary = T.self as? any DictionaryProbing.Type {
            return Self.cast(dictionary.probeDictionary(sample: sample, probe: self, codingPath: codingPath), codingPath)
        }
        if let enumeration = T.self as? any (CaseIterable & Encodable).Type,
           let probe = Self.caseIterable(enumeration, as: T.self, sample: sample, codingPath: codingPath)
        {
            return probe
        }
        return nominal(T.self, sample: sample, codingPath: codingPath)
    }

    /// `T` learned by running its own `init(from:)` on a probing decoder.
    private func nominal<T: Decodable>(_ type: T.Type, sample: JSONValue?, codingPath: [any CodingKey]) -> Probe<T> {
        let id = ObjectIdentifier(T.self)
        guard stack.count < maxDepth else {
            return .failure(.unknown, ProbeLimit(reason: "schema inference gave up: nested too deep"))
        }
        let frames = stack.filter { $0.id == id }
        if frames.count >= maxNesting || (sample == nil && frames.lazy.filter(\.isMadeUp).count >= maxRecursion) {
            return .failure(.unknown, ProbeLimit(reason: "schema inference stopped at a recursive type"))
        }
        stack.append((id, sample == nil))
        defer { stack.removeLast() }

        var result = run(T.self, sample: sample, codingPath: codingPath)
        if let sample {
            if isCollecting, case .success = result.value { remember(sample, for: id) }
        } else if case .failure = result.value, !isCollecting, let samples = remembered[id] {
            // Nothing to follow and made-up values were refused (a union needs a case name):
            // learn from this type's samples elsewhere instead.
            var learned: Probe<T>?
            for other in samples {
                let probe = run(T.self, sample: other, codingPath: codingPath)
                guard var sofar = learned else { learned = probe; continue }
                sofar.schema = EditorSchema.merge(sofar.schema, probe.schema)
                if case .failure = sofar.value { sofar.value = probe.value }
                learned = sofar
            }
            if let learned { result = learned }
        }
        if case .union = result.schema, !isCollecting, let cases = unionCases(T.self, id: id, codingPath: codingPath) {
            // A union's cases belong to its type: every place shows every case seen anywhere, in
            // the order they were first seen.
            result.schema = EditorSchema.merge(cases, result.schema)
        }
        return result
    }

    /// Runs `T(from:)` on a fresh probing decoder; the schema is built from what it asked for.
    private func run<T: Decodable>(_ type: T.Type, sample: JSONValue?, codingPath: [any CodingKey]) -> Probe<T> {
        let decoder = ProbeDecoder(sample: sample, probe: self, codingPath: codingPath)
        let name = String(describing: T.self)
        do {
            let value = try T(from: decoder)
            return Probe(value: .success(value), schema: decoder.schema(name: name, failed: false))
        } catch {
            return .failure(decoder.schema(name: name, failed: true), error)
        }
    }

    private func remember(_ sample: JSONValue, for id: ObjectIdentifier) {
        let size = Self.size(of: sample, limit: maxRememberedSize)
        guard size <= maxRememberedSize else { return }
        var samples = remembered[id] ?? []
        guard !samples.contains(sample) else { return }
        if case .object(let members) = sample, members.count == 1 {
            // Looks like a union value: keep one sample per case, however many cases, the smallest.
            let key = members.keys.first!
            if let index = samples.firstIndex(where: { $0.objectValue?.count == 1 && $0.objectValue?[key] != nil }) {
                guard size < Self.size(of: samples[index], limit: maxRememberedSize) else { return }
                samples[index] = sample
            } else {
                samples.append(sample)
            }
        } else {
            guard samples.count < maxRememberedSamples else { return }
            samples.append(sample)
        }
        remembered[id] = samples
    }

    /// How many JSON values `value` holds, counting no further than just past `limit`.
    static func size(of value: JSONValue, limit: Int) -> Int {
        var count = 0
        var pending = [value]
        while let next = pending.popLast(), count <= limit {
            count += 1
            switch next {
            case .array(let elements): pending.append(contentsOf: elements.prefix(limit))
            case .object(let members): pending.append(contentsOf: members.values.prefix(limit))
            default: break
            }
        }
        return count
    }

    /// The union schema taught by all remembered samples of `T`, computed once per inference.
    private func unionCases<T: Decodable>(_ type: T.Type, id: ObjectIdentifier, codingPath: [any CodingKey]) -> EditorSchema? {
        if let memo = unionMemo[id] { return memo }
        unionMemo[id] = .some(nil)
        var learned: EditorSchema?
        for sample in remembered[id] ?? [] {
            var schema = run(T.self, sample: sample, codingPath: codingPath).schema
            if case .union(let name, var cases) = schema, case .object(let members) = sample, members.count == 1 {
                // The sample is an example of its case: a case switch in the browser starts from it.
                for index in cases.indices where members[cases[index].name] != nil { cases[index].example = sample }
                schema = .union(name: name, cases: cases)
            }
            learned = learned.map { EditorSchema.merge($0, schema) } ?? schema
        }
        unionMemo[id] = .some(learned)
        return learned
    }

    // MARK: Known types

    /// Strings, booleans and numbers, decoded strictly like a JSON decoder would.
    static func primitive<T>(_ type: T.Type, sample: JSONValue?, codingPath: [any CodingKey]) -> Probe<T>? {
        func make(_ schema: EditorSchema, _ value: Any?) -> Probe<T> {
            if let value = value as? T { return Probe(value: .success(value), schema: schema) }
            let found = sample.map { $0.kindDescription } ?? "nothing"
            return .failure(schema, DecodingError.typeMismatch(T.self, .init(codingPath: codingPath, debugDescription: "expected \(T.self), found \(found)")))
        }
        if T.self == String.self {
            guard let sample else { return make(.string(), "") }
            return make(.string(), sample.stringValue)
        }
        if T.self == Bool.self {
            guard let sample else { return make(.boolean, false) }
            if case .bool(let value) = sample { return make(.boolean, value) }
            return make(.boolean, nil)
        }
        if let integer = T.self as? any (FixedWidthInteger & Decodable).Type {
            return make(.integer, Self.integer(integer, sample: sample))
        }
        if let floating = T.self as? any (BinaryFloatingPoint & Decodable).Type {
            return make(.number, Self.floating(floating, sample: sample))
        }
        return nil
    }

    private static func integer<I: FixedWidthInteger>(_ type: I.Type, sample: JSONValue?) -> I? {
        switch sample {
        case nil: 0
        case .integer(let value)?: I(exactly: value)
        case .double(let value)?: I(exactly: value)
        case .exactNumber(let text)?: I(text)  // a UInt64 above Int64.max
        default: nil
        }
    }

    private static func floating<F: BinaryFloatingPoint>(_ type: F.Type, sample: JSONValue?) -> F? {
        switch sample {
        case nil: 0
        case .integer(let value)?: F(value)
        case .double(let value)?: F(value)
        case .exactNumber(let text)?: Double(text).map { F($0) }
        default: nil
        }
    }

    /// Foundation values our encoder writes as strings or numbers, and `Command`.
    /// Their values are made directly, leniently: only their schema matters here.
    static func foundation<T>(_ type: T.Type, sample: JSONValue?, codingPath: [any CodingKey]) -> Probe<T>? {
        let schema: EditorSchema
        let value: Any
        if T.self == Date.self {
            schema = .string(format: .dateTime)
            value = sample?.stringValue.flatMap(ISO8601.date(from:)) ?? Date(timeIntervalSince1970: 0)
        } else if T.self == URL.self {
            schema = .string(format: .url)
            value = sample?.stringValue.flatMap { URL(string: $0) } ?? URL(string: "about:blank")!
        } else if T.self == UUID.self {
            schema = .string(format: .uuid)
            value = sample?.stringValue.flatMap { UUID(uuidString: $0) } ?? UUID(uuid: (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0))
        } else if T.self == Command.self {
            schema = .command
            value = Command(sample?.stringValue ?? "command")
        } else if T.self == Decimal.self {
            schema = .number
            value = Decimal(0)
        } else if T.self == Data.self {
            schema = .string()
            value = Data()
        } else {
            return nil
        }
        return cast(Probe<Any>(value: .success(value), schema: schema), codingPath)
    }

    /// A `CaseIterable` enum: its values are its cases encoded. Raw values make an `enum` schema;
    /// payload-less cases in the synthesized form (`{"red": {}}`) make a `union`; anything else is
    /// left to the general probe (nil).
    static func caseIterable<C: CaseIterable & Encodable, T>(_ type: C.Type, as target: T.Type, sample: JSONValue?, codingPath: [any CodingKey]) -> Probe<T>? {
        let cases = Array(C.allCases)
        let encoder = JSONValueEncoder()
        var values: [JSONValue] = []
        for element in cases {
            guard let value = try? encoder.encode(element) else { return nil }
            values.append(value)
        }
        let name = String(describing: C.self)
        let schema: EditorSchema
        if values.allSatisfy({ if case .string = $0 { true } else if case .integer = $0 { true } else { false } }) {
            schema = .enumeration(name: name, values: values)
        } else if values.allSatisfy({ $0.objectValue?.count == 1 && $0.objectValue?.first?.value == .object([:]) }) {
            schema = .union(name: name, cases: values.map { .init(name: $0.objectValue!.keys.first!, fields: []) })
        } else {
            return nil
        }
        let index = sample.map { sample in values.firstIndex { $0.jsonEquals(sample) } } ?? (cases.isEmpty ? nil : 0)
        guard let index, let value = cases[index] as? T else {
            let found = sample.map { $0.serialized() } ?? "nothing"
            return .failure(schema, DecodingError.dataCorrupted(.init(codingPath: codingPath, debugDescription: "no case of \(name) encodes as \(found)")))
        }
        return Probe(value: .success(value), schema: schema)
    }

    /// A probe of some value type seen as `Any`, given back as `T`.
    static func cast<T>(_ probe: Probe<Any>, _ codingPath: [any CodingKey]) -> Probe<T> {
        switch probe.value {
        case .success(let value):
            if let value = value as? T { return Probe(value: .success(value), schema: probe.schema) }
            return .failure(probe.schema, DecodingError.typeMismatch(T.self, .init(codingPath: codingPath, debugDescription: "schema probe made a \(type(of: value))")))
        case .failure(let error):
            return .failure(probe.schema, error)
        }
    }
}

// MARK: - Generic containers

/// `Optional<Wrapped>`: the wrapped type's schema, nullable; the value is nil unless a sample has one.
protocol OptionalProbing {
    static func probeOptional(sample: JSONValue?, probe: SchemaProbe, codingPath: [any CodingKey]) -> Probe<Any>
}

extension Optional: OptionalProbing where Wrapped: Decodable {
    static func probeOptional(sample: JSONValue?, probe: SchemaProbe, codingPath: [any CodingKey]) -> Probe<Any> {
        let present = sample == .null ? nil : sample
        let wrapped = probe.probe(Wrapped.self, sample: present, codingPath: codingPath)
        let value: Self = present == nil ? .none : (try? wrapped.value.get())
        return Probe(value: .success(value as Any), schema: .nullable(wrapped.schema))
    }
}

/// Arrays and sets: the elements' schemas merged (one made-up element when there is none);
/// the value is always empty, which any `init(from:)` accepts.
protocol SequenceProbing {
    static func probeSequence(sample: JSONValue?, probe: SchemaProbe, codingPath: [any CodingKey]) -> Probe<Any>
}

extension SequenceProbing {
    fileprivate static func probeElements<Element: Decodable>(_ element: Element.Type, sample: JSONValue?, probe: SchemaProbe, codingPath: [any CodingKey]) -> Result<EditorSchema, any Error> {
        let elements: [JSONValue]
        switch sample {
        case nil: elements = []
        case .array(let values)?: elements = values
        case let other?:
            return .failure(DecodingError.typeMismatch(Self.self, .init(codingPath: codingPath, debugDescription: "expected an array, found \(other.kindDescription)")))
        }
        var schema = EditorSchema.unknown
        for (index, element) in elements.enumerated() {
            schema = EditorSchema.merge(schema, probe.probe(Element.self, sample: element, codingPath: codingPath + [IndexKey(index)]).schema)
        }
        if elements.isEmpty {
            schema = probe.probe(Element.self, sample: nil, codingPath: codingPath + [IndexKey(0)]).schema
        }
        return .success(schema)
    }
}

extension Array: SequenceProbing where Element: Decodable {
    static func probeSequence(sample: JSONValue?, probe: SchemaProbe, codingPath: [any CodingKey]) -> Probe<Any> {
        switch probeElements(Element.self, sample: sample, probe: probe, codingPath: codingPath) {
        case .success(let items): Probe(value: .success(Self() as Any), schema: .array(items: items))
        case .failure(let error): .failure(.unknown, error)
        }
    }
}

extension ContiguousArray: SequenceProbing where Element: Decodable {
    static func probeSequence(sample: JSONValue?, probe: SchemaProbe, codingPath: [any CodingKey]) -> Probe<Any> {
        switch probeElements(Element.self, sample: sample, probe: probe, codingPath: codingPath) {
        case .success(let items): Probe(value: .success(Self() as Any), schema: .array(items: items))
        case .failure(let error): .failure(.unknown, error)
        }
    }
}

extension Set: SequenceProbing where Element: Decodable {
    static func probeSequence(sample: JSONValue?, probe: SchemaProbe, codingPath: [any CodingKey]) -> Probe<Any> {
        switch probeElements(Element.self, sample: sample, probe: probe, codingPath: codingPath) {
        case .success(let items): Probe(value: .success(Self() as Any), schema: .array(items: items))
        case .failure(let error): .failure(.unknown, error)
        }
    }
}

/// `[String: Value]`: the values' schemas merged (one made-up value when there is none); the value
/// is always empty. Other key types have no editor: `unknown`, still with an empty value.
protocol DictionaryProbing {
    static func probeDictionary(sample: JSONValue?, probe: SchemaProbe, codingPath: [any CodingKey]) -> Probe<Any>
}

extension Dictionary: DictionaryProbing where Key: Decodable, Value: Decodable {
    static func probeDictionary(sample: JSONValue?, probe: SchemaProbe, codingPath: [any CodingKey]) -> Probe<Any> {
        guard Key.self == String.self else { return Probe(value: .success(Self() as Any), schema: .unknown) }
        let members: [String: JSONValue]
        switch sample {
        case nil: members = [:]
        case .object(let values)?: members = values
        case let other?:
            return .failure(.unknown, DecodingError.typeMismatch(Self.self, .init(codingPath: codingPath, debugDescription: "expected an object, found \(other.kindDescription)")))
        }
        var schema = EditorSchema.unknown
        for key in members.keys.sorted() {
            schema = EditorSchema.merge(schema, probe.probe(Value.self, sample: members[key], codingPath: codingPath + [NameKey(key)]).schema)
        }
        if members.isEmpty {
            schema = probe.probe(Value.self, sample: nil, codingPath: codingPath + [NameKey("*")]).schema
        }
        return Probe(value: .success(Self() as Any), schema: .dictionary(values: schema))
    }
}

/// A coding key for an array position.
struct IndexKey: CodingKey {
    let intValue: Int?
    var stringValue: String { String(intValue ?? 0) }
    init(_ index: Int) { intValue = index }
    init?(intValue: Int) { self.intValue = intValue }
    init?(stringValue: String) { nil }
}

/// A coding key for an object member.
struct NameKey: CodingKey {
    let stringValue: String
    var intValue: Int? { nil }
    init(_ name: String) { stringValue = name }
    init?(stringValue: String) { self.stringValue = stringValue }
    init?(intValue: Int) { nil }
}
