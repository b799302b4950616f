import Foundation

/// Decodes `Decodable` values straight from a `JSONValue`: the reading twin of `JSONValueEncoder`.
///
/// Numbers are read from their exact value: an integer type takes a whole number that fits it and
/// refuses anything else with a message that says why ("expected an integer, found 2.5",
/// "9223372036854775808 does not fit in Int64"); `Decimal` is made from the number's decimal text;
/// `Float` and `Double` take the nearest value. Dates are ISO 8601 (`ISO8601`), URLs their string,
/// `Data` base64. Errors are `DecodingError`s whose coding path names the field.
struct JSONValueDecoder {
    func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        try ValueDecoder(value: value, codingPath: []).unbox(T.self)
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let codingPath: [any CodingKey]
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw mismatch([String: JSONValue].self) }
        return KeyedDecodingContainer(ValueKeyedContainer<Key>(members: members, codingPath: codingPath))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw mismatch([JSONValue].self) }
        return ValueUnkeyedContainer(elements: elements, codingPath: codingPath)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ValueSingleContainer(decoder: self)
    }

    func mismatch(_ type: Any.Type) -> DecodingError {
        if value == .null {
            return .valueNotFound(type, .init(codingPath: codingPath, debugDescription: "found null"))
        }
        return .typeMismatch(type, .init(codingPath: codingPath, debugDescription: "found \(value.kindDescription)"))
    }

    private func corrupted(_ message: String) -> DecodingError {
        .dataCorrupted(.init(codingPath: codingPath, debugDescription: message))
    }

    /// `T` from this value: scalars and Foundation types directly, everything else by `init(from:)`.
    func unbox<T: Decodable>(_ type: T.Type) throws -> T {
        if T.self == String.self {
            guard case .string(let string) = value else { throw mismatch(T.self) }
            return string as! T
        }
        if T.self == Bool.self {
            guard case .bool(let bool) = value else { throw mismatch(T.self) }
            return bool as! T
        }
        // The common number types by identity: the conformance casts below cost about 1k instructions each.
        if T.self == Int.self { return try self.integer(Int.self) as! T }
        if T.self == Int64.self { return try self.integer(Int64.self) as! T }
        if T.self == Double.self { return try self.floating(Double.self) as! T }
        if let integer = T.self as? any (FixedWidthInteger & Decodable).Type {
            return try self.integer(integer) as! T
        }
        if let floating = T.self as? any (BinaryFloatingPoint & LosslessStringConvertible & Decodable).Type {
            return try self.floating(floating) as! T
        }
        if T.self == Decimal.self { return try decimal() as! T }
        if T.self == Date.self {
            guard case .string(let text) = value else { throw mismatch(T.self) }
            guard let date = ISO8601.date(from: text) else {
                throw corrupted("expected an ISO 8601 date-time such as 2026-11-22T10:00:00Z, found '\(text)'")
            }
            return date as! T
        }
        if T.self == URL.self {
            guard case .string(let text) = value else { throw mismatch(T.self) }
            guard let url = URL(string: text) else { throw corrupted("Invalid URL string.") }
            return url as! T
        }
        if T.self == Data.self {
            guard case .string(let text) = value else { throw mismatch(T.self) }
            guard let data = Data(base64Encoded: text) else { throw corrupted("expected base64 data") }
            return data as! T
        }
        return try T(from: self)
    }

    private func integer<I: FixedWidthInteger>(_ type: I.Type) throws -> I {
        if case .integer(let integer) = value, let exact = I(exactly: integer) { return exact }  // no text to read
        guard let text = value.numberText, let decimal = DecimalText(text) else { throw mismatch(I.self) }
        guard decimal.isWhole else { throw corrupted("expected an integer, found \(text)") }
        if case .integer(let integer) = value, let exact = I(exactly: integer) { return exact }
        if case .double(let double) = value, let exact = I(exactly: double) { return exact }
        if decimal.isIntegerSyntax, let exact = I(text) { return exact }
        throw corrupted("\(text) does not fit in \(I.self)")
    }

    private func floating<F: BinaryFloatingPoint & LosslessStringConvertible>(_ type: F.Type) throws -> F {
        // A double read as a double is itself (its shortest text parses back to it exactly).
        if F.self == Double.self, case .double(let double) = value, double.isFinite { return double as! F }
        guard let text = value.numberText else { throw mismatch(F.self) }
        guard let number = F(text), number.isFinite else { throw corrupted("\(text) does not fit in \(F.self)") }
        return number
    }

    private func decimal() throws -> Decimal {
        guard let text = value.numberText else { throw mismatch(Decimal.self) }
        guard let number = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !number.isNaN else {
            throw corrupted("\(text) does not fit in Decimal")
        }
        return number
    }
}

private struct ValueKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let codingPath: [any CodingKey]

    var allKeys: [Key] { members.keys.sorted().compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func decoder(for key: Key) throws -> ValueDecoder {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: codingPath, debugDescription: "missing"))
        }
        return ValueDecoder(value: value, codingPath: codingPath + [key])
    }

    func decodeNil(forKey key: Key) throws -> Bool { try decoder(for: key).value == .null }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try decoder(for: key).unbox(T.self)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: members["super"] ?? .null, codingPath: codingPath)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: members[key.stringValue] ?? .null, codingPath: codingPath + [key])
    }
}

private struct ValueUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let codingPath: [any CodingKey]
    private(set) var currentIndex = 0

    init(elements: [JSONValue], codingPath: [any CodingKey]) {
        self.elements = elements
        self.codingPath = codingPath
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    private func next(_ type: Any.Type) throws -> ValueDecoder {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: codingPath + [IndexKey(currentIndex)], debugDescription: "the array has no more elements"))
        }
        return ValueDecoder(value: elements[currentIndex], codingPath: codingPath + [IndexKey(currentIndex)])
    }

    mutating func decodeNil() throws -> Bool {
        guard try next(Any?.self).value == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try next(T.self).unbox(T.self)
        currentIndex += 1
        return value
    }

    mutating func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type) throws -> KeyedDecodingContainer<NestedKey> {
        let container = try next(type).container(keyedBy: type)
        currentIndex += 1
        return container
    }

    mutating func nestedUnkeyedContainer() throws -> any UnkeyedDecodingContainer {
        let container = try next([JSONValue].self).unkeyedContainer()
        currentIndex += 1
        return container
    }

    mutating func superDecoder() throws -> any Decoder {
        let decoder = try next(Any.self)
        currentIndex += 1
        return decoder
    }
}

private struct ValueSingleContainer: SingleValueDecodingContainer {
    let decoder: ValueDecoder
    var codingPath: [any CodingKey] { decoder.codingPath }

    func decodeNil() -> Bool { decoder.value == .null }

    func decode<T: Decodable>(_ type: T.Type) throws -> T {
        try decoder.unbox(T.self)
    }
}
