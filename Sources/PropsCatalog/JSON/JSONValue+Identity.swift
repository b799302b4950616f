#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

extension JSONValue {
    /// Whether two values are the same JSON byte for byte, where `==` is looser: strings and keys
    /// with the same UTF-8 bytes (`==` also takes a canonically equivalent spelling, "ö" for
    /// "o\u{308}"), doubles with the same bits (`==` takes `-0.0` for `0.0`), numbers of the same form.
    /// Arrays and objects that share storage (an edit kept as sent shares every subtree it did not
    /// touch with the props it was patched from) answer at once.
    package func isIdentical(to other: JSONValue) -> Bool {
        // One value at a time, not `switch (self, other)`: the pair is a copy of both, a retain and a
        // release of each one's storage (a string's, a container's), cold lines for a long list's items.
        switch self {
        case .null:
            if case .null = other { return true }
        case .bool(let first):
            if case .bool(let second) = other { return first == second }
        case .integer(let first):
            if case .integer(let second) = other { return first == second }
        case .double(let first):
            if case .double(let second) = other { return first.bitPattern == second.bitPattern }
        case .exactNumber(let first):
            if case .exactNumber(let second) = other { return first.hasSameUTF8(as: second) }
        case .string(let first):
            if case .string(let second) = other { return first.hasSameUTF8(as: second) }
        case .array(let first):
            guard case .array(let second) = other, first.count == second.count else { return false }
            if Self.shareStorage(first, second) { return true }
            for index in first.indices where !first[index].isIdentical(to: second[index]) { return false }
            return true
        case .object(let first):
            guard case .object(let second) = other, first.count == second.count else { return false }
            if Self.shareStorage(first, second) { return true }
            for (key, value) in first {
                guard let index = second.index(forKey: key) else { return false }
                let (otherKey, otherValue) = second[index]
                guard key.hasSameUTF8(as: otherKey), value.isIdentical(to: otherValue) else { return false }
            }
            return true
        }
        return false
    }

    /// Whether the two values are identical as far as one look tells: scalars compared byte for
    /// byte, arrays and objects by their storage only (false for two copies of the same members).
    /// What a diff skips before it builds a member's pointer; it compares the rest member by member.
    func isAtOnceIdentical(to other: JSONValue) -> Bool {
        switch self {
        case .array(let first):
            guard case .array(let second) = other else { return false }
            return Self.shareStorage(first, second)
        case .object(let first):
            guard case .object(let second) = other else { return false }
            return Self.shareStorage(first, second)
        default:
            return isIdentical(to: other)
        }
    }

    static func shareStorage(_ first: [JSONValue], _ second: [JSONValue]) -> Bool {
        storageAddress(of: first) == storageAddress(of: second)
    }

    static func shareStorage(_ first: [String: JSONValue], _ second: [String: JSONValue]) -> Bool {
        guard let a = storageAddress(of: first), let b = storageAddress(of: second) else { return false }
        return a == b
    }

    /// Where an array's or an object's members are stored (nil for any other value): two values
    /// with the same address share one storage, which is immutable while both hold it.
    var storageAddress: UInt? {
        switch self {
        case .array(let elements): Self.storageAddress(of: elements)
        case .object(let members): Self.storageAddress(of: members)
        default: nil
        }
    }

    private static func storageAddress(of elements: [JSONValue]) -> UInt {
        elements.withUnsafeBufferPointer { UInt(bitPattern: $0.baseAddress) }
    }

    /// A native dictionary is one reference to its storage: the same bits are the same storage.
    /// (Were it laid out otherwise, there is no address and the members are compared.)
    private static func storageAddress(of members: [String: JSONValue]) -> UInt? {
        guard MemoryLayout<[String: JSONValue]>.size == MemoryLayout<UInt>.size else { return nil }
        return withUnsafeBytes(of: members) { $0.load(as: UInt.self) }
    }
}

extension String {
    /// The same UTF-8 bytes, where `==` would also take a canonically equivalent spelling.
    package func hasSameUTF8(as other: String) -> Bool {
        guard utf8.count == other.utf8.count else { return false }
        let compared = utf8.withContiguousStorageIfAvailable { a in
            other.utf8.withContiguousStorageIfAvailable { b in a.isEmpty || memcmp(a.baseAddress!, b.baseAddress!, a.count) == 0 }
        }
        return compared.flatMap { $0 } ?? utf8.elementsEqual(other.utf8)
    }
}
