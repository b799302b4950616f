import Foundation

/// Decodes JSON values into Props types, turning `DecodingError`s into `PropsError`s that name
/// the field by JSON Pointer and say what was expected and what was found.
package enum PropsDecoding {
    /// Decodes `json` into `Props`. Members the type does not know are refused by `keptValue`.
    package static func decode<Props: Decodable>(_ type: Props.Type, from json: JSONValue) throws(PropsError) -> Props {
        try decode(type, from: json, memo: nil)
    }

    /// Decodes `json` into `Props` (again only where `memo` has not seen it). Members the type does
    /// not know are refused by `keptValue`.
    static func decode<Props: Decodable>(_ type: Props.Type, from json: JSONValue, memo: RoundTripTable?) throws(PropsError) -> Props {
        do {
            return try JSONValueDecoder(memo: memo).decode(Props.self, from: json)
        } catch let error as DecodingError {
            throw propsError(error, input: json)
        } catch {
            throw PropsError(path: JSONPointer(), message: "\(error)")
        }
    }

    /// The JSON Pointer of a coding path: each key's `stringValue`, the member name a keyed container
    /// reads and writes (an `Int`-backed `CodingKeys` case included), and the index of an unkeyed one.
    static func pointer(_ codingPath: [any CodingKey]) -> JSONPointer {
        JSONPointer(tokens: codingPath.map(\.stringValue))
    }

    static func propsError(_ error: DecodingError, input: JSONValue) -> PropsError {
        switch error {
        case .keyNotFound(let key, let context):
            return PropsError(path: pointer(context.codingPath + [key]), message: "missing field \(key.stringValue)")
        case .valueNotFound(let type, let context):
            return PropsError(path: pointer(context.codingPath), message: "expected \(describe(type)), found null")
        case .typeMismatch(let type, let context):
            let path = pointer(context.codingPath)
            let found = input.value(at: path)
            if case .object(let members)? = found, context.debugDescription.contains("keys") {
                // A synthesized enum with associated values found no key it knows.
                switch members.count {
                case 0: return PropsError(path: path, message: "expected one enum case, found an empty object")
                case 1: return PropsError(path: path, message: "unknown case '\(members.keys.first!)'")
                default: return PropsError(path: path, message: "expected exactly one enum case, found \(members.keys.sorted().map { "'\($0)'" }.joined(separator: ", "))")
                }
            }
            return PropsError(path: path, message: "expected \(describe(type)), found \(found?.kindDescription ?? "nothing")")
        case .dataCorrupted(let context):
            let path = pointer(context.codingPath)
            let found = input.value(at: path)
            if context.debugDescription.hasPrefix("Cannot initialize") {
                // A raw-value enum that has no case for the value.
                return PropsError(path: path, message: found.map { "unknown value \($0.serialized())" } ?? "unknown value", isUnknownRawValue: true)
            }
            if case .string(let text)? = found, context.debugDescription.contains("URL") || context.debugDescription.contains("UUID") {
                return PropsError(path: path, message: "invalid \(context.debugDescription.contains("URL") ? "URL" : "UUID") '\(text)'")
            }
            return PropsError(path: path, message: context.debugDescription)
        @unknown default:
            return PropsError(path: JSONPointer(), message: "\(error)")
        }
    }

    private static func describe(_ type: Any.Type) -> String {
        switch type {
        case is String.Type, is Substring.Type, is Character.Type: "a string"
        case is Bool.Type: "a boolean"
        case is Int.Type, is Int8.Type, is Int16.Type, is Int32.Type, is Int64.Type,
            is UInt.Type, is UInt8.Type, is UInt16.Type, is UInt32.Type, is UInt64.Type: "an integer"
        case is Double.Type, is Float.Type, is Decimal.Type: "a number"
        case is [String: Any].Type, is [String: any Sendable].Type: "an object"
        case is [Any].Type, is [any Sendable].Type: "an array"
        default: describeByName(String(describing: type))
        }
    }

    private static func describeByName(_ name: String) -> String {
        if name.hasPrefix("Dictionary") { return "an object" }
        if name.hasPrefix("Array") { return "an array" }
        return "a value of type \(name)"
    }
}
