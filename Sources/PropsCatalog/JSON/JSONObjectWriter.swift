/// Writes one JSON object straight to bytes, member by member, splicing in parts that are already
/// serialized (a story's props, its rendered text) instead of building and serializing a `JSONValue`.
///
/// Members must come in ascending key order: the bytes are then exactly what
/// `JSONValue.serializedBytes()` gives for the same object. Keys are literals that need no escape
/// (checked in debug builds), copied as they are: scanning each key for escapes, as a value is, was
/// about 300 of the 400 instructions a member cost.
package struct JSONObjectWriter {
    private var bytes: [UInt8]
    #if DEBUG
    private var lastKey: String?
    #endif

    package init(capacity: Int = 256) {
        bytes = [UInt8(ascii: "{")]
        bytes.reserveCapacity(capacity)
    }

    /// A member whose value is JSON text already serialized with sorted keys.
    package mutating func member(_ key: StaticString, json: some Collection<UInt8>) {
        writeKey(key)
        bytes.append(contentsOf: json)
    }

    /// A member whose value is JSON text already serialized with sorted keys (copied at once; the
    /// generic form appends byte by byte when called from another module).
    package mutating func member(_ key: StaticString, json: [UInt8]) {
        writeKey(key)
        bytes.append(contentsOf: json)
    }

    package mutating func member(_ key: StaticString, _ value: JSONValue) {
        writeKey(key)
        bytes.append(contentsOf: value.serializedBytes())
    }

    package mutating func member(_ key: StaticString, string: String) {
        writeKey(key)
        JSONValue.writeString(string, into: &bytes)
    }

    /// A member whose key is not a literal (escaped like any string).
    package mutating func member(named key: String, string: String) {
        checkOrder(key)
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        JSONValue.writeString(key, into: &bytes)
        bytes.append(UInt8(ascii: ":"))
        JSONValue.writeString(string, into: &bytes)
    }

    package mutating func member(_ key: StaticString, integer: Int) {
        writeKey(key)
        JSONValue.writeInteger(Int64(integer), into: &bytes)
    }

    package mutating func member(_ key: StaticString, bool: Bool) {
        writeKey(key)
        JSONValue.writeLiteral(bool ? "true" : "false", into: &bytes)
    }

    /// The object's bytes, closing brace included; the last call on the writer. (Mutating, not consuming:
    /// a consuming method that appends may append to a copy of the bytes.)
    package mutating func finish() -> [UInt8] {
        bytes.append(UInt8(ascii: "}"))
        return bytes
    }

    private mutating func writeKey(_ key: StaticString) {
        #if DEBUG
        checkOrder(key.description)
        assert(!key.withUTF8Buffer { $0.contains(where: JSONValue.needsEscape) }, "JSONObjectWriter: the key '\(key)' needs escaping; use member(named:string:)")
        #endif
        // The object's "{" is its first byte: any more means a member was written.
        if bytes.count > 1 { bytes.append(UInt8(ascii: ",")) }
        bytes.append(UInt8(ascii: "\""))
        key.withUTF8Buffer { bytes.append(contentsOf: $0) }
        bytes.append(UInt8(ascii: "\""))
        bytes.append(UInt8(ascii: ":"))
    }

    /// Keys must ascend (checked in debug builds, which every test runs: comparing strings for every
    /// member cost more than writing them).
    private mutating func checkOrder(_ key: String) {
        #if DEBUG
        if let lastKey {
            assert(lastKey < key, "JSONObjectWriter: '\(key)' written after '\(lastKey)'; keys must ascend")
        }
        lastKey = key
        #endif
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
