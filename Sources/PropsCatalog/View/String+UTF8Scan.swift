extension String {
    /// Whether any UTF-8 byte of the string satisfies `predicate`: a loop over the contiguous bytes of a
    /// native or literal string, which costs a fraction of the same loop over `utf8` as a collection.
    func containsUTF8Byte(where predicate: (UInt8) -> Bool) -> Bool {
        utf8.withContiguousStorageIfAvailable { $0.contains(where: predicate) } ?? utf8.contains(where: predicate)
    }

    /// Whether the string starts with `prefix`, ASCII letters compared without case (`prefix` lowercase ASCII).
    func hasASCIICaseInsensitivePrefix(_ prefix: StaticString) -> Bool {
        var bytes = utf8.makeIterator()
        for expected in UnsafeBufferPointer(start: prefix.utf8Start, count: prefix.utf8CodeUnitCount) {
            guard let byte = bytes.next(),
                  byte == expected || (byte >= UInt8(ascii: "A") && byte <= UInt8(ascii: "Z") && byte | 0x20 == expected)
            else { return false }
        }
        return true
    }
}
