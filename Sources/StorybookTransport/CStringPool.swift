#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// C copies of Swift strings that stay valid as long as the pool: for lws structs that keep pointers.
final class CStringPool {
    private var strings: [UnsafeMutablePointer<CChar>] = []

    deinit {
        for string in strings { free(string) }
    }

    /// A C copy of `string`, freed with the pool.
    func cString(_ string: String) -> UnsafePointer<CChar> {
        guard let copy = strdup(string) else {
            fatalError("out of memory copying a libwebsockets string")
        }
        strings.append(copy)
        return UnsafePointer(copy)
    }
}
