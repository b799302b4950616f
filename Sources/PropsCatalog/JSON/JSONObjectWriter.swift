/// Writes one JSON object straight to bytes, member by member, splicing in parts that are already
/// serialized (a story's props, its rendered text) instead of building and serializing a `JSONValue`.
///
/// Members must come in ascending key order: the bytes are then exactly what
/// `JSONValue.serializedBytes()` gives for the same object.
package struct JSONObjectWriter {
    private var bytes: [UInt8]
    private var lastKey: String?

    package init(capacity: Int = 256) {
        bytes = [UInt8(ascii: "{")]
        bytes.reserveCapacity(capacity)
    }

    /// A member whose value is JSON text already serialized with sorted keys.
    package mutating func member(_ key: String, json: some Collection<UInt8>) {
        writeKey(key)
        bytes.append(contentsOf: json)
    }

    /// A member whose value is JSON text already serialized with sorted keys (copied at once; the
    /// generic form appends byte by byte when called from another module).
    package mutating func member(_ key: String, json: [UInt8]) {
        writeKey(key)
        bytes.append(contentsOf: json)
    }

    package mutating func member(_ key: String, _ value: JSONValue) {
        writeKey(key)
        bytes.append(contentsOf: value.serializedBytes())
    }

    package mutating func member(_ key: String, string: String) {
        writeKey(key)
        JSONValue.writeString(string, into: &bytes)
    }

    package mutating func member(_ key: String, integer: Int) {
        writeKey(key)
        bytes.append(contentsOf: String(integer).utf8)
    }

    package mutating func member(_ key: String, bool: Bool) {
        writeKey(key)
        bytes.append(contentsOf: (bool ? "true" : "false").utf8)
    }

    /// The object's bytes, closing brace included.
    package consuming func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func writeKey(_ key: String) {
        if let lastKey {
            // Checked in debug builds (every test): comparing strings for every member cost more than writing them.
            assert(lastKey < key, "JSONObjectWriter: '\(key)' written after '\(lastKey)'; keys must ascend")
            bytes.append(UInt8(ascii: ","))
        }
        lastKey = key
        JSONValue.writeString(key, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
    }
}

extension JSONValue {
    /// `string` as a JSON string literal, quotes included: for splicing with ``JSONObjectWriter``.
    package static func serializedString(_ string: String) -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(string.utf8.count + 2)
        writeString(string, into: &bytes)
        return bytes
    }
}
