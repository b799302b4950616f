#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The one run of characters that differs between two strings: the common start and end are kept,
/// what lies between is replaced. A `state` delta carries one per projection, so an edit of one
/// row of a long list sends that row, not the whole text and HTML.
///
/// Offsets count UTF-16 code units, as JavaScript strings index; the run never splits a Unicode
/// scalar (nor, in UTF-16, a surrogate pair).
package struct TextSplice: Sendable, Equatable {
    /// UTF-16 units kept from the start of the old string.
    package let offset: Int
    /// UTF-16 units of the old string replaced, after `offset`.
    package let removed: Int
    /// What replaces them.
    package let inserted: String

    package init(offset: Int, removed: Int, inserted: String) {
        self.offset = offset
        self.removed = removed
        self.inserted = inserted
    }

    /// Bytes two strings are known to share at their start and at their end, so that finding the
    /// splice between them starts comparing past them (a projection rendered from the one before
    /// knows which of its bytes it copied where they were: `RenderMemo.sharedEnds`).
    package struct SharedEnds: Sendable, Equatable {
        /// Bytes known equal from the start of both.
        package let prefix: Int
        /// Bytes known equal from the end of both.
        package let suffix: Int

        package static let none = SharedEnds(prefix: 0, suffix: 0)

        package init(prefix: Int, suffix: Int) {
            self.prefix = prefix
            self.suffix = suffix
        }
    }

    /// The splice that turns `old` into `new`: the longest common start, then the longest common end
    /// in what is left, both on scalar boundaries. Compares eight bytes at a time, from past the
    /// ends the strings are known to share (`known`: the same splice, found sooner).
    package init(from old: String, to new: String, sharing known: SharedEnds = .none) {
        self.init(comparing: old, to: new, from: known)
        assert(known == .none || self == TextSplice(comparing: old, to: new, from: .none), "TextSplice: the shared ends \(known) are wrong")
    }

    private init(comparing old: String, to new: String, from known: SharedEnds) {
        var old = old
        var new = new
        // An ASCII string (its UTF-16 count is its UTF-8 count) needs no counting. Swift answers the
        // UTF-16 count of a native ASCII string at once; of any other it walks the string.
        let oldIsASCII = old.utf16.count == old.utf8.count
        (offset, removed, inserted) = old.withUTF8 { oldBytes in
            new.withUTF8 { newBytes in
                let shorter = min(oldBytes.count, newBytes.count)
                var prefix = Self.commonPrefix(oldBytes, newBytes, from: min(known.prefix, shorter), limit: shorter)
                while prefix > 0, Self.isContinuation(oldBytes, at: prefix) || Self.isContinuation(newBytes, at: prefix) {
                    prefix -= 1
                }
                var suffix = Self.commonSuffix(oldBytes, newBytes, from: min(known.suffix, shorter - prefix), limit: shorter - prefix)
                while suffix > 0, Self.isContinuation(oldBytes, at: oldBytes.count - suffix) { suffix -= 1 }
                let oldEnd = oldBytes.count - suffix
                let newEnd = newBytes.count - suffix
                if oldIsASCII {
                    return (prefix, oldEnd - prefix, String(decoding: UnsafeBufferPointer(rebasing: newBytes[prefix..<newEnd]), as: UTF8.self))
                }
                return (
                    Self.utf16Count(UnsafeBufferPointer(rebasing: oldBytes[..<prefix])),
                    Self.utf16Count(UnsafeBufferPointer(rebasing: oldBytes[prefix..<oldEnd])),
                    String(decoding: UnsafeBufferPointer(rebasing: newBytes[prefix..<newEnd]), as: UTF8.self)
                )
            }
        }
    }

    /// Whether nothing changes.
    package var isEmpty: Bool { removed == 0 && inserted.isEmpty }

    /// `old` with the splice made, or nil when the splice does not fit it (a string other than the
    /// one it was made from).
    package func applied(to old: String) -> String? {
        let units = old.utf16
        guard offset >= 0, removed >= 0, offset + removed <= units.count,
              let start = units.index(units.startIndex, offsetBy: offset, limitedBy: units.endIndex)?.samePosition(in: old.unicodeScalars),
              let end = units.index(units.startIndex, offsetBy: offset + removed, limitedBy: units.endIndex)?.samePosition(in: old.unicodeScalars)
        else { return nil }
        var result = old
        result.replaceSubrange(start..<end, with: inserted)
        return result
    }

    // MARK: - Bytes

    private static func isContinuation(_ bytes: UnsafeBufferPointer<UInt8>, at index: Int) -> Bool {
        index < bytes.count && bytes[index] & 0xC0 == 0x80
    }

    /// Bytes compared at once by `memcmp` before the exact position is looked for.
    private static let chunk = 1024

    private static func commonPrefix(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int) -> Int {
        guard let baseA = a.baseAddress, let baseB = b.baseAddress else { return 0 }
        var index = start
        while index + chunk <= limit, memcmp(baseA + index, baseB + index, chunk) == 0 { index += chunk }
        let rawA = UnsafeRawPointer(baseA)
        let rawB = UnsafeRawPointer(baseB)
        while index + 8 <= limit,
              rawA.loadUnaligned(fromByteOffset: index, as: UInt64.self) == rawB.loadUnaligned(fromByteOffset: index, as: UInt64.self) {
            index += 8
        }
        while index < limit, baseA[index] == baseB[index] { index += 1 }
        return index
    }

    private static func commonSuffix(_ a: UnsafeBufferPointer<UInt8>, _ b: UnsafeBufferPointer<UInt8>, from start: Int, limit: Int) -> Int {
        guard let baseA = a.baseAddress, let baseB = b.baseAddress else { return 0 }
        let endA = baseA + a.count
        let endB = baseB + b.count
        var length = start
        while length + chunk <= limit, memcmp(endA - length - chunk, endB - length - chunk, chunk) == 0 { length += chunk }
        while length + 8 <= limit,
              UnsafeRawPointer(endA - length - 8).loadUnaligned(as: UInt64.self) == UnsafeRawPointer(endB - length - 8).loadUnaligned(as: UInt64.self) {
            length += 8
        }
        while length < limit, (endA - length - 1).pointee == (endB - length - 1).pointee { length += 1 }
        return length
    }

    /// UTF-16 units of valid UTF-8: one per scalar, two for a scalar of four bytes. Counts the lead
    /// bytes, eight bytes at a time.
    private static func utf16Count(_ bytes: UnsafeBufferPointer<UInt8>) -> Int {
        let raw = UnsafeRawBufferPointer(bytes)
        let high: UInt64 = 0x8080_8080_8080_8080
        var count = 0
        var index = 0
        while index + 8 <= bytes.count {
            let word = raw.loadUnaligned(fromByteOffset: index, as: UInt64.self)
            if word & high != 0 {
                // Continuation bytes (10xxxxxx) add nothing; four-byte leads (11110xxx) add one more.
                let continuation = word & high & ~(word << 1)
                let fourByteLead = word & (word << 1) & (word << 2) & (word << 3) & high
                count += 8 - continuation.nonzeroBitCount + fourByteLead.nonzeroBitCount
            } else {
                count += 8
            }
            index += 8
        }
        while index < bytes.count {
            let byte = bytes[index]
            if byte & 0xC0 != 0x80 { count += 1 }
            if byte >= 0xF0 { count += 1 }
            index += 1
        }
        return count
    }
}
