extension JSONPatch {
    /// The RFC 6902 form as bytes, written operation by operation into one array: the same bytes as
    /// `json.serializedBytes()` without building a dictionary, a writer or a pointer's text per
    /// operation (the journal and every state delta carry one patch a change).
    package func serializedBytes() -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(64 * operations.count + 2)
        for (index, operation) in operations.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            // Members in sorted order: from, op, path, value.
            if let from = operation.from {
                JSONValue.writeLiteral("{\"from\":", into: &out)
                Self.write(from, into: &out)
                JSONValue.writeLiteral(",\"op\":", into: &out)
            } else {
                JSONValue.writeLiteral("{\"op\":", into: &out)
            }
            JSONValue.writeString(operation.name, into: &out)
            JSONValue.writeLiteral(",\"path\":", into: &out)
            Self.write(operation.path, into: &out)
            if let value = operation.value {
                JSONValue.writeLiteral(",\"value\":", into: &out)
                value.write(into: &out)
            }
            out.append(UInt8(ascii: "}"))
        }
        out.append(UInt8(ascii: "]"))
        return out
    }

    /// Appends a pointer's text as a JSON string. Tokens with nothing to escape, for the pointer or
    /// for JSON (nearly all), are copied as they are.
    private static func write(_ pointer: JSONPointer, into out: inout [UInt8]) {
        let plain = pointer.tokens.allSatisfy { token in
            !token.containsUTF8Byte { JSONValue.needsEscape($0) || $0 == UInt8(ascii: "~") || $0 == UInt8(ascii: "/") }
        }
        guard plain else {
            JSONValue.writeString(pointer.description, into: &out)
            return
        }
        out.append(UInt8(ascii: "\""))
        for token in pointer.tokens {
            out.append(UInt8(ascii: "/"))
            var token = token
            token.withUTF8 { out.append(contentsOf: $0) }
        }
        out.append(UInt8(ascii: "\""))
    }
}
