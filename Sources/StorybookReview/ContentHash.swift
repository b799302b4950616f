package import PropsCatalog

/// FNV-1a, 64 bits: a fast, stable content hash for strong ETags and projection hashes.
package enum ContentHash {
    package static func hex(_ bytes: some Sequence<UInt8>) -> String {
        // Contiguous bytes (arrays, the common case) hash without per-element iterator overhead.
        let hash = bytes.withContiguousStorageIfAvailable(fnv1a) ?? Array(bytes).withUnsafeBufferPointer(fnv1a)
        let digits = String(hash, radix: 16)
        return String(repeating: "0", count: 16 - digits.count) + digits
    }

    /// The hash itself, as a number (the story tables key ids by it). Not generic, so that it runs as
    /// it is from other modules.
    @inlinable
    package static func fnv1a(_ bytes: UnsafeBufferPointer<UInt8>) -> UInt64 {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in bytes {
            hash ^= UInt64(byte)
            hash &*= 0x0000_0100_0000_01B3
        }
        return hash
    }

    /// A strong ETag for `bytes`: `"<hash>"`.
    package static func etag(_ bytes: some Sequence<UInt8>) -> String {
        "\"\(hex(bytes))\""
    }

    /// A strong ETag for `bytes` rendered in `environment`: the plain one in the default environment,
    /// one that also depends on the environment otherwise (the same bytes in two environments are
    /// two representations with two ETags).
    package static func etag(_ bytes: [UInt8], environment: ViewEnvironment) -> String {
        environment.isStandard ? etag(bytes) : etag(bytes + Array("\n\(environment.key)".utf8))
    }
}
