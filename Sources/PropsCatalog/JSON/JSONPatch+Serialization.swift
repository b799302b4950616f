extension JSONPatch {
    /// The RFC 6902 form as bytes, written operation by operation: the same bytes as
    /// `json.serializedBytes()` without building a dictionary per operation (the journal writes one
    /// patch a change).
    package func serializedBytes() -> [UInt8] {
        var out: [UInt8] = [UInt8(ascii: "[")]
        out.reserveCapacity(64 * operations.count + 2)
        for (index, operation) in operations.enumerated() {
            if index > 0 { out.append(UInt8(ascii: ",")) }
            // Members in sorted order: from, op, path, value.
            var writer = JSONObjectWriter(capacity: 64)
            if let from = operation.from { writer.member("from", string: from.description) }
            writer.member("op", string: operation.name)
            writer.member("path", string: operation.path.description)
            if let value = operation.value { writer.member("value", value) }
            out.append(contentsOf: writer.finish())
        }
        out.append(UInt8(ascii: "]"))
        return out
    }
}
