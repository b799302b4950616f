/// An RFC 6901 JSON Pointer such as `/input/_0/username/value`.
package struct JSONPointer: Sendable, Hashable, CustomStringConvertible {
    /// The unescaped reference tokens, outermost first. Empty for the whole document.
    package var tokens: [String]

    /// A pointer from unescaped tokens.
    package init(tokens: [String] = []) {
        self.tokens = tokens
    }

    /// Parses the pointer syntax: empty, or `/`-separated tokens with `~1` for `/` and `~0` for `~`.
    package init(parsing text: String) throws(JSONPointerError) {
        guard !text.isEmpty else { self.tokens = []; return }
        guard text.utf8.first == UInt8(ascii: "/") else { throw JSONPointerError(pointer: text, reason: "a JSON Pointer starts with '/'") }
        // Read as UTF-8 bytes: '/', '~', '0' and '1' are ASCII, so they never occur inside another character.
        var tokens: [String] = []
        var remaining = text.utf8.dropFirst()
        while true {
            let end = remaining.firstIndex(of: UInt8(ascii: "/")) ?? remaining.endIndex
            tokens.append(try Self.unescaped(remaining[remaining.startIndex..<end], in: text))
            guard end < remaining.endIndex else { break }
            remaining = remaining[remaining.index(after: end)...]
        }
        self.tokens = tokens
    }

    /// A reference token's text: `~0` read as `~`, `~1` as `/`.
    private static func unescaped(_ raw: Substring.UTF8View, in text: String) throws(JSONPointerError) -> String {
        guard raw.contains(UInt8(ascii: "~")) else { return String(Substring(raw)) }
        var bytes: [UInt8] = []
        bytes.reserveCapacity(raw.count)
        var iterator = raw.makeIterator()
        while let byte = iterator.next() {
            guard byte == UInt8(ascii: "~") else { bytes.append(byte); continue }
            switch iterator.next() {
            case UInt8(ascii: "0"): bytes.append(UInt8(ascii: "~"))
            case UInt8(ascii: "1"): bytes.append(UInt8(ascii: "/"))
            default: throw JSONPointerError(pointer: text, reason: "'~' must be followed by '0' or '1'")
            }
        }
        return String(decoding: bytes, as: UTF8.self)
    }

    /// The escaped pointer text.
    package var description: String {
        var text = ""
        for token in tokens {
            text.append("/")
            Self.appendEscaped(token, to: &text)
        }
        return text
    }

    /// Appends `token` with `~` written `~0` and `/` written `~1`; a token with neither (nearly all) in one piece.
    private static func appendEscaped(_ token: String, to text: inout String) {
        guard token.utf8.contains(where: { $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }) else {
            text.append(token)
            return
        }
        for character in token.unicodeScalars {
            switch character {
            case "~": text.append("~0")
            case "/": text.append("~1")
            default: text.unicodeScalars.append(character)
            }
        }
    }

    /// This pointer with one more token.
    package func appending(_ token: String) -> JSONPointer {
        JSONPointer(tokens: tokens + [token])
    }

    /// The pointer to the parent container, or nil for the root.
    package var parent: JSONPointer? {
        tokens.isEmpty ? nil : JSONPointer(tokens: Array(tokens.dropLast()))
    }

    /// Whether `self` is `other` or lies inside it.
    package func hasPrefix(_ other: JSONPointer) -> Bool {
        tokens.count >= other.tokens.count && Array(tokens.prefix(other.tokens.count)) == other.tokens
    }
}

/// A pointer that is not valid RFC 6901 syntax.
package struct JSONPointerError: Error, Sendable, Equatable, CustomStringConvertible {
    package let pointer: String
    package let reason: String
    package var description: String { "invalid JSON Pointer '\(pointer)': \(reason)" }
}

extension JSONValue {
    /// The value the pointer refers to, or nil when it refers to nothing.
    package func value(at pointer: JSONPointer) -> JSONValue? {
        var current = self
        for token in pointer.tokens {
            switch current {
            case .object(let members):
                guard let next = members[token] else { return nil }
                current = next
            case .array(let elements):
                guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return nil }
                current = elements[index]
            default:
                return nil
            }
        }
        return current
    }
}

extension JSONPointer {
    /// The array index a token names: digits only, no leading zero (RFC 6901 section 4).
    package static func arrayIndex(_ token: String) -> Int? {
        guard !token.isEmpty, token.utf8.allSatisfy({ $0 >= 0x30 && $0 <= 0x39 }) else { return nil }
        guard token == "0" || token.first != "0" else { return nil }
        return Int(token)
    }
}
