import Foundation
import Synchronization

/// Decodes `Decodable` values straight from a `JSONValue`: the reading twin of `JSONValueEncoder`.
///
/// Numbers are read from their exact value: an integer type takes a whole number that fits it and
/// refuses anything else with a message that says why ("expected an integer, found 2.5",
/// "9223372036854775808 does not fit in Int64"); `Decimal` is made from the number's decimal text;
/// `Float` and `Double` take the nearest value. Dates are ISO 8601 (`ISO8601`), URLs their string,
/// `Data` base64. Errors are `DecodingError`s whose coding path names the field.
struct JSONValueDecoder {
    /// Decodes again only the arrays and objects it has not decoded before as the same type.
    var memo: RoundTripTable?

    func decode<T: Decodable>(_ type: T.Type, from value: JSONValue) throws -> T {
        // The root is new with every edit: only its parts are looked up and remembered.
        try ValueDecoder.unbox(T.self, from: value, at: .root, memo: memo, remember: false)
    }
}

/// The types that are numbers the decoder reads itself (any `FixedWidthInteger`, any
/// `BinaryFloatingPoint & LosslessStringConvertible`) beyond the common ones told by identity:
/// the conformance casts cost about 1k instructions each, so each type is cast once.
private enum NumberTypes {
    private static let known = Mutex<[ObjectIdentifier: Bool]>([:])

    /// Whether `type` may be one of those numbers: false only for a type the casts found not to be.
    static func mayBeNumber(_ type: Any.Type) -> Bool {
        known.withLock { $0[ObjectIdentifier(type)] } ?? {
            let isNumber = type is any (FixedWidthInteger & Decodable).Type
                || type is any (BinaryFloatingPoint & LosslessStringConvertible & Decodable).Type
            known.withLock { $0[ObjectIdentifier(type)] = isNumber }
            return isNumber
        }()
    }
}

private struct ValueDecoder: Decoder {
    let value: JSONValue
    let path: CodingPathLink
    let memo: RoundTripTable?
    var codingPath: [any CodingKey] {
        memo?.noteCodingPathRead()
        return path.codingPath
    }
    var userInfo: [CodingUserInfoKey: Any] { [:] }

    func container<Key: CodingKey>(keyedBy type: Key.Type) throws -> KeyedDecodingContainer<Key> {
        guard case .object(let members) = value else { throw Self.mismatch([String: JSONValue].self, value, path) }
        return KeyedDecodingContainer(ValueKeyedContainer<Key>(members: members, path: path, memo: memo))
    }

    func unkeyedContainer() throws -> any UnkeyedDecodingContainer {
        guard case .array(let elements) = value else { throw Self.mismatch([JSONValue].self, value, path) }
        return ValueUnkeyedContainer(elements: elements, path: path, memo: memo)
    }

    func singleValueContainer() throws -> any SingleValueDecodingContainer {
        ValueSingleContainer(decoder: self)
    }

    static func mismatch(_ type: Any.Type, _ value: JSONValue, _ path: CodingPathLink) -> DecodingError {
        if value == .null {
            return .valueNotFound(type, .init(codingPath: path.codingPath, debugDescription: "found null"))
        }
        return .typeMismatch(type, .init(codingPath: path.codingPath, debugDescription: "found \(value.kindDescription)"))
    }

    private static func corrupted(_ message: String, _ path: CodingPathLink) -> DecodingError {
        .dataCorrupted(.init(codingPath: path.codingPath, debugDescription: message))
    }

    /// `T` from `value` at `path`: scalars and Foundation types directly, everything else by
    /// `init(from:)` (unless `memo` has it). The path is made only for an error or a decoder.
    static func unbox<T: Decodable>(
        _ type: T.Type, from value: JSONValue, at path: @autoclosure () -> CodingPathLink, memo: RoundTripTable?, remember: Bool = true
    ) throws -> T {
        // Each type told by identity is returned by `identityCast`: `as! T` here is a cast the runtime
        // looks up (this generic code is not specialized for the Props type).
        if T.self == String.self { return identityCast(try string(value, path()), to: T.self) }
        if T.self == Bool.self { return identityCast(try bool(value, path()), to: T.self) }
        // The common number types by identity, the others by a cast made once per type (asked of
        // the memo first, which answers without a lock for the type asked last: a list's items).
        if T.self == Int.self { return identityCast(try integer(Int.self, value, path()), to: T.self) }
        if T.self == Int64.self { return identityCast(try integer(Int64.self, value, path()), to: T.self) }
        if T.self == Double.self { return identityCast(try floating(Double.self, value, path()), to: T.self) }
        if memo?.mayBeNumber(T.self, ask: NumberTypes.mayBeNumber) ?? NumberTypes.mayBeNumber(T.self) {
            if let integer = T.self as? any (FixedWidthInteger & Decodable).Type {
                return try self.integer(integer, value, path()) as! T
            }
            if let floating = T.self as? any (BinaryFloatingPoint & LosslessStringConvertible & Decodable).Type {
                return try self.floating(floating, value, path()) as! T
            }
        }
        if T.self == Decimal.self { return identityCast(try decimal(value, path()), to: T.self) }
        if T.self == Date.self {
            guard case .string(let text) = value else { throw mismatch(T.self, value, path()) }
            guard let date = ISO8601.date(from: text) else {
                throw corrupted("expected an ISO 8601 date-time such as 2026-11-22T10:00:00Z, found '\(text)'", path())
            }
            return identityCast(date, to: T.self)
        }
        if T.self == URL.self {
            guard case .string(let text) = value else { throw mismatch(T.self, value, path()) }
            guard let url = URL(string: text) else { throw corrupted("Invalid URL string.", path()) }
            return identityCast(url, to: T.self)
        }
        if T.self == Data.self {
            guard case .string(let text) = value else { throw mismatch(T.self, value, path()) }
            guard let data = Data(base64Encoded: text) else { throw corrupted("expected base64 data", path()) }
            return identityCast(data, to: T.self)
        }
        guard let memo, remember else { return try T(from: ValueDecoder(value: value, path: path(), memo: memo)) }
        if case .array(let elements) = value, let array = memo.elementwise(T.self) {
            return try memo.decode(T.self, from: value) { try array.decode(elements, at: path(), memo: memo, as: T.self) }
        }
        return try memo.decode(T.self, from: value) { try T(from: ValueDecoder(value: value, path: path(), memo: memo)) }
    }

    static func string(_ value: JSONValue, _ path: @autoclosure () -> CodingPathLink) throws -> String {
        guard case .string(let string) = value else { throw mismatch(String.self, value, path()) }
        return string
    }

    static func bool(_ value: JSONValue, _ path: @autoclosure () -> CodingPathLink) throws -> Bool {
        guard case .bool(let bool) = value else { throw mismatch(Bool.self, value, path()) }
        return bool
    }

    static func integer<I: FixedWidthInteger>(_ type: I.Type, _ value: JSONValue, _ path: @autoclosure () -> CodingPathLink) throws -> I {
        if case .integer(let integer) = value, let exact = I(exactly: integer) { return exact }  // no text to read
        guard let text = value.numberText, let decimal = DecimalText(text) else { throw mismatch(I.self, value, path()) }
        guard decimal.isWhole else { throw corrupted("expected an integer, found \(text)", path()) }
        if case .integer(let integer) = value, let exact = I(exactly: integer) { return exact }
        if case .double(let double) = value, let exact = I(exactly: double) { return exact }
        if decimal.isIntegerSyntax, let exact = I(text) { return exact }
        throw corrupted("\(text) does not fit in \(I.self)", path())
    }

    static func floating<F: BinaryFloatingPoint & LosslessStringConvertible>(
        _ type: F.Type, _ value: JSONValue, _ path: @autoclosure () -> CodingPathLink
    ) throws -> F {
        // A double read as a double is itself (its shortest text parses back to it exactly).
        if F.self == Double.self, case .double(let double) = value, double.isFinite { return double as! F }
        guard let text = value.numberText else { throw mismatch(F.self, value, path()) }
        guard let number = F(text), number.isFinite else { throw corrupted("\(text) does not fit in \(F.self)", path()) }
        return number
    }

    private static func decimal(_ value: JSONValue, _ path: @autoclosure () -> CodingPathLink) throws -> Decimal {
        guard let text = value.numberText else { throw mismatch(Decimal.self, value, path()) }
        guard let number = Decimal(string: text, locale: Locale(identifier: "en_US_POSIX")), !number.isNaN else {
            throw corrupted("\(text) does not fit in Decimal", path())
        }
        return number
    }
}

private struct ValueKeyedContainer<Key: CodingKey>: KeyedDecodingContainerProtocol {
    let members: [String: JSONValue]
    let path: CodingPathLink
    let memo: RoundTripTable?
    var codingPath: [any CodingKey] {
        memo?.noteCodingPathRead()
        return path.codingPath
    }

    var allKeys: [Key] { members.keys.sorted().compactMap { Key(stringValue: $0) } }

    func contains(_ key: Key) -> Bool { members[key.stringValue] != nil }

    private func value(for key: Key) throws -> JSONValue {
        guard let value = members[key.stringValue] else {
            throw DecodingError.keyNotFound(key, .init(codingPath: path.codingPath, debugDescription: "missing"))
        }
        return value
    }

    private func decoder(for key: Key) throws -> ValueDecoder {
        ValueDecoder(value: try value(for: key), path: .key(key, parent: path), memo: memo)
    }

    func decodeNil(forKey key: Key) throws -> Bool { try value(for: key) == .null }

    // The scalars a synthesized `init(from:)` asks for by their own requirements, read here as
    // `unbox` reads them: without these, each went through the generic `decode` and a cast of its
    // result to `T` that the runtime looks up (the generic code is not specialized for the Props type).

    func decode(_ type: String.Type, forKey key: Key) throws -> String {
        try ValueDecoder.string(value(for: key), .key(key, parent: path))
    }

    func decode(_ type: Bool.Type, forKey key: Key) throws -> Bool {
        try ValueDecoder.bool(value(for: key), .key(key, parent: path))
    }

    func decode(_ type: Int.Type, forKey key: Key) throws -> Int {
        try ValueDecoder.integer(Int.self, value(for: key), .key(key, parent: path))
    }

    func decode(_ type: Int64.Type, forKey key: Key) throws -> Int64 {
        try ValueDecoder.integer(Int64.self, value(for: key), .key(key, parent: path))
    }

    func decode(_ type: Double.Type, forKey key: Key) throws -> Double {
        try ValueDecoder.floating(Double.self, value(for: key), .key(key, parent: path))
    }

    func decode<T: Decodable>(_ type: T.Type, forKey key: Key) throws -> T {
        try ValueDecoder.unbox(T.self, from: value(for: key), at: .key(key, parent: path), memo: memo)
    }

    func nestedContainer<NestedKey: CodingKey>(keyedBy type: NestedKey.Type, forKey key: Key) throws -> KeyedDecodingContainer<NestedKey> {
        try decoder(for: key).container(keyedBy: type)
    }

    func nestedUnkeyedContainer(forKey key: Key) throws -> any UnkeyedDecodingContainer {
        try decoder(for: key).unkeyedContainer()
    }

    func superDecoder() throws -> any Decoder {
        ValueDecoder(value: members["super"] ?? .null, path: path, memo: memo)
    }

    func superDecoder(forKey key: Key) throws -> any Decoder {
        ValueDecoder(value: members[key.stringValue] ?? .null, path: .key(key, parent: path), memo: memo)
    }
}

private struct ValueUnkeyedContainer: UnkeyedDecodingContainer {
    let elements: [JSONValue]
    let path: CodingPathLink
    let memo: RoundTripTable?
    private(set) var currentIndex = 0
    var codingPath: [any CodingKey] {
        memo?.noteCodingPathRead()
        return path.codingPath
    }

    init(elements: [JSONValue], path: CodingPathLink, memo: RoundTripTable?) {
        self.elements = elements
        self.path = path
        self.memo = memo
    }

    var count: Int? { elements.count }
    var isAtEnd: Bool { currentIndex >= elements.count }

    /// The path of the current element.
    private var elementPath: CodingPathLink { .index(currentIndex, parent: path) }

    /// The current element, read as `type`.
    private func element(_ type: Any.Type) throws -> JSONValue {
        guard !isAtEnd else {
            throw DecodingError.valueNotFound(type, .init(codingPath: elementPath.codingPath, debugDescription: "the array has no more elements"))
        }
        return elements[currentIndex]
    }

    private func next(_ type: Any.Type) throws -> ValueDecoder {
        ValueDecoder(value: try element(type), path: elementPath, memo: memo)
    }

    mutating func decodeNil() throws -> Bool {
        guard try element(Any?.self) == .null else { return false }
        currentIndex += 1
        return true
    }

    mutating func decode<T: Decodable>(_ type: T.Type) throws -> T {
        let value = try ValueDecoder.unbox(T.self, from: element(T.self), at: elementPath, memo: memo)
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
        try ValueDecoder.unbox(T.self, from: decoder.value, at: decoder.path, memo: decoder.memo)
    }
}

/// An array the decoder decodes itself when it has a memo, as `Array.init(from:)` would (element `i`
/// from the JSON's element `i`, an error's coding path ending in its index), so that the elements a
/// patch did not touch are found by position in the array decoded before (`RoundTripTable.decodeElements`).
protocol ElementwiseDecodable {
    static func decode(_ elements: [JSONValue], at path: CodingPathLink, memo: RoundTripTable) throws -> Self
}

extension ElementwiseDecodable {
    /// The array decoded, as `T`, which is this type (the memo's answer for `T`): no cast to look up.
    static func decode<T>(_ elements: [JSONValue], at path: CodingPathLink, memo: RoundTripTable, as type: T.Type) throws -> T {
        identityCast(try decode(elements, at: path, memo: memo), to: T.self)
    }
}

/// `value` as `T`, which is its own type (the caller checked `T.self == V.self`): the value as it is,
/// where `as! T` in generic code asks the runtime to cast it.
@inline(__always)
func identityCast<V, T>(_ value: V, to type: T.Type) -> T {
    assert(V.self == T.self, "an identity cast between different types")
    return unsafeBitCast(value, to: T.self)
}

extension Array: ElementwiseDecodable where Element: Decodable {
    static func decode(_ elements: [JSONValue], at path: CodingPathLink, memo: RoundTripTable) throws -> [Element] {
        try memo.decodeElements(Element.self, of: elements) { index, element in
            try ValueDecoder.unbox(Element.self, from: element, at: .index(index, parent: path), memo: memo)
        }
    }
}
