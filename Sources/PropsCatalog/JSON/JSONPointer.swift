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
        guard text.first == "/" else { throw JSONPointerError(pointer: text, reason: "a JSON Pointer starts with '/'") }
        var tokens: [String] = []
        for raw in text.dropFirst().split(separator: "/", omittingEmptySubsequences: false) {
            var token = ""
            var iterator = raw.makeIterator()
            while let character = iterator.next() {
                guard character == "~" else { token.append(character); continue }
                switch iterator.next() {
                case "0": token.append("~")
                case "1": token.append("/")
                default: throw JSONPointerError(pointer: text, reason: "'~' must be followed by '0' or '1'")
                }
            }
            tokens.append(token)
        }
        self.tokens = tokens
    }

    /// The escaped pointer text.
    package var description: String {
        tokens.map { "/" + $0.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1") }.joined()
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

extension String {
    fileprivate func replacingOccurrences(of target: String, with replacement: String) -> String {
        guard contains(target) else { return self }
        return split(separator: target, omittingEmptySubsequences: false).joined(separator: replacement)
    }
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
