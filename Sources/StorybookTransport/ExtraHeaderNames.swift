/// Headers lws does not know by name that the transport still reads (``TransportConfiguration/extraHeaderNames``),
/// each with the lowercased key it is stored under and the `name:` lws looks it up by, worked out once
/// for the loop rather than for every request.
struct ExtraHeaderNames {
    struct Name {
        /// The lowercased name, as in ``HTTPRequest/headers``.
        let key: String
        /// `key` followed by a colon, as lws stores an unknown header, as a C string: made once, since a
        /// `String` passed to C is copied into a new C string on every call.
        private let lookup: [CChar]

        init(_ name: String) {
            key = name.lowercased()
            lookup = Array((key + ":").utf8CString)
        }

        /// The bytes of `name:`, without the C string's terminator.
        var lookupByteCount: Int { lookup.count - 1 }

        /// Calls `body` with the C string `name:` and its length, as lws' custom header calls take them.
        func withLookup<Result>(_ body: (UnsafePointer<CChar>, Int32) -> Result) -> Result {
            lookup.withUnsafeBufferPointer { buffer in body(buffer.baseAddress!, Int32(buffer.count - 1)) }
        }
    }

    let names: [Name]

    init(_ names: [String]) {
        self.names = names.map(Name.init)
    }
}
