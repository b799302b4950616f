/// A JSON document as a value: what the server, the journal and the browser exchange.
///
/// Integers and doubles are kept apart so that `1` stays `1` and `1.5` stays `1.5`; a number that
/// neither `Int64` nor `Double` holds exactly (a `UInt64` above `Int64.max`, a `Decimal` with more
/// digits than a double) keeps its decimal text (`exactNumber`). Make numbers from text with
/// `JSONValue.number(text:)`, which picks the one form for each value. Objects are unordered and
/// always serialized with sorted keys, so equal values have equal bytes.
public enum JSONValue: Sendable, Hashable {
    case null
    case bool(Bool)
    case integer(Int64)
    case double(Double)
    /// A JSON number kept as its text, for values that `Int64` and `Double` cannot hold exactly.
    case exactNumber(String)
    case string(String)
    case array([JSONValue])
    case object([String: JSONValue])
}

extension JSONValue {
    /// The name of the value's JSON type, as used in error messages ("a string", "an object").
    public var kindDescription: String {
        switch self {
        case .null: "null"
        case .bool: "a boolean"
        case .integer, .double, .exactNumber: "a number"
        case .string: "a string"
        case .array: "an array"
        case .object: "an object"
        }
    }

    /// The object's members, or nil when the value is not an object.
    public var objectValue: [String: JSONValue]? {
        if case .object(let members) = self { return members }
        return nil
    }

    /// The array's elements, or nil when the value is not an array.
    public var arrayValue: [JSONValue]? {
        if case .array(let elements) = self { return elements }
        return nil
    }

    /// The string, or nil when the value is not a string.
    public var stringValue: String? {
        if case .string(let string) = self { return string }
        return nil
    }

    /// An integer value, accepting doubles with no fractional part.
    public var integerValue: Int64? {
        switch self {
        case .integer(let value): value
        case .double(let value) where value.rounded() == value && abs(value) < 9.0e15: Int64(value)
        case .exactNumber(let text): Int64(text)
        default: nil
        }
    }

    /// Member lookup for objects; nil for anything else.
    public subscript(key: String) -> JSONValue? {
        objectValue?[key]
    }


    /// Structural equality as JSON means it: `1` equals `1.0` (numbers are compared by value).
    public func jsonEquals(_ other: JSONValue) -> Bool {
        if let a = numberText, let b = other.numberText, self != other {
            return DecimalText(a) == DecimalText(b)
        }
        switch (self, other) {
        case (.array(let a), .array(let b)):
            return a.count == b.count && zip(a, b).allSatisfy { $0.jsonEquals($1) }
        case (.object(let a), .object(let b)):
            guard a.count == b.count else { return false }
            return a.allSatisfy { key, value in b[key].map { value.jsonEquals($0) } ?? false }
        default:
            return self == other
        }
    }
}

extension JSONValue: ExpressibleByNilLiteral, ExpressibleByBooleanLiteral, ExpressibleByIntegerLiteral,
    ExpressibleByFloatLiteral, ExpressibleByStringLiteral, ExpressibleByArrayLiteral,
    ExpressibleByDictionaryLiteral
{
    /// `null`.
    public init(nilLiteral: ()) { self = .null }
    /// `true` or `false`.
    public init(booleanLiteral value: Bool) { self = .bool(value) }
    /// An integer.
    public init(integerLiteral value: Int64) { self = .integer(value) }
    /// A floating-point number.
    public init(floatLiteral value: Double) { self = .double(value) }
    /// A string.
    public init(stringLiteral value: String) { self = .string(value) }
    /// An array.
    public init(arrayLiteral elements: JSONValue...) { self = .array(elements) }
    /// An object; a repeated key keeps its last value.
    public init(dictionaryLiteral elements: (String, JSONValue)...) {
        self = .object(Dictionary(elements, uniquingKeysWith: { _, last in last }))
    }
}

extension JSONValue: CustomStringConvertible {
    /// Compact JSON with sorted keys.
    public var description: String { serialized() }
}
