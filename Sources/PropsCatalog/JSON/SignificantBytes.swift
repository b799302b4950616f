@_spi(Reflection) import Swift

/// Where a value of one type keeps what it says: the bytes of every stored property of a struct, down
/// to the leaves, and all the bytes of any other value (an enum, a reference, a tuple, a scalar); never
/// the padding between properties, which a copy made property by property leaves as it found it.
/// Two values of the type whose significant bytes are equal are the same value when the buffers those
/// bytes point to are immutable (held elsewhere, so never uniquely referenced).
struct SignificantBytes {
    /// The runs of significant bytes, in order, none empty and none touching the next.
    let runs: [Range<Int>]
    /// The same bytes as the offsets of whole words, then of the bytes left at the end of runs:
    /// what comparing and folding walk.
    private let words: [Int]
    private let bytes: [Int]

    /// The layout of `type`, nil for a class (its value is a reference to something mutable) and for
    /// an empty type.
    init?(of type: Any.Type) {
        guard Self.size(of: type) > 0, !(type is AnyObject.Type) else { return nil }
        var runs: [Range<Int>] = []
        Self.collect(type, at: 0, into: &runs)
        self.runs = runs
        var words: [Int] = []
        var bytes: [Int] = []
        for run in runs {
            var offset = run.lowerBound
            while offset + 8 <= run.upperBound {
                words.append(offset)
                offset += 8
            }
            bytes += offset..<run.upperBound
        }
        self.words = words
        self.bytes = bytes
    }

    private static func collect(_ type: Any.Type, at base: Int, into runs: inout [Range<Int>]) {
        var fields: [(offset: Int, type: Any.Type, isStruct: Bool)] = []
        // Reflection leaves out what is no stored property to Swift: a C struct's bit-fields (on
        // Apple platforms `Decimal`'s exponent, length and sign), and a field whose type the runtime
        // cannot name comes back as `()`. Such a struct counts all its bytes.
        let reflected = !_typeName(type, qualified: true).hasPrefix("__C") && _forEachField(of: type, options: []) { _, offset, fieldType, kind in
            guard fieldType != Void.self else { return false }
            fields.append((offset, fieldType, kind == .struct))
            return true
        }
        guard reflected, !fields.isEmpty else {
            add(base..<base + size(of: type), to: &runs)
            return
        }
        for field in fields {
            if field.isStruct {
                collect(field.type, at: base + field.offset, into: &runs)
            } else {
                add(base + field.offset..<base + field.offset + size(of: field.type), to: &runs)
            }
        }
    }

    private static func add(_ run: Range<Int>, to runs: inout [Range<Int>]) {
        guard !run.isEmpty else { return }
        if let last = runs.last, last.upperBound >= run.lowerBound {
            runs[runs.count - 1] = last.lowerBound..<max(last.upperBound, run.upperBound)
        } else {
            runs.append(run)
        }
    }

    private static func size(of type: Any.Type) -> Int {
        func size<T>(_: T.Type) -> Int { MemoryLayout<T>.size }
        return _openExistential(type, do: size)
    }

    /// The significant bytes of `value` folded into one word (a hash key: `value(_:matchesValueAt:)` decides).
    func fold<T>(_ value: T) -> UInt64 {
        withUnsafeBytes(of: value) { fold(bytes: $0) }
    }

    /// The significant bytes of the value whose bytes are `raw` folded into one word.
    func fold(bytes raw: UnsafeRawBufferPointer) -> UInt64 {
        let base = raw.baseAddress!
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for offset in words {
            hash = (hash ^ base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) &* 0x0000_0100_0000_01b3
            hash ^= hash >> 29
        }
        for offset in bytes {
            hash = (hash ^ UInt64(base.load(fromByteOffset: offset, as: UInt8.self))) &* 0x0000_0100_0000_01b3
        }
        return hash
    }

    /// Whether the significant bytes of `value` are those of the value of the same type at `other`.
    func value<T>(_ value: T, matchesValueAt other: UnsafeRawPointer) -> Bool {
        withUnsafeBytes(of: value) { bytes($0, matchValueAt: other) }
    }

    /// Whether the significant bytes of the value whose bytes are `raw` are those of the value of the same type at `other`.
    func bytes(_ raw: UnsafeRawBufferPointer, matchValueAt other: UnsafeRawPointer) -> Bool {
        // word by word (a value is a few words: a call to memcmp would cost more than the comparison)
        let base = raw.baseAddress!
        for offset in words
        where base.loadUnaligned(fromByteOffset: offset, as: UInt64.self) != other.loadUnaligned(fromByteOffset: offset, as: UInt64.self) {
            return false
        }
        for offset in bytes where base.load(fromByteOffset: offset, as: UInt8.self) != other.load(fromByteOffset: offset, as: UInt8.self) {
            return false
        }
        return true
    }
}
