/// Headers lws does not know by name that the transport still reads (``TransportConfiguration/extraHeaderNames``),
/// each with the lowercased key it is stored under and the `name:` lws looks it up by, worked out once
/// for the loop rather than for every request.
struct ExtraHeaderNames {
    struct Name {
        /// The lowercased name, as in ``HTTPRequest/headers``.
        let key: String
        /// `key` followed by a colon, as lws stores an unknown header.
        let lookup: String
        let lookupLength: Int32
    }

    let names: [Name]

    init(_ names: [String]) {
        self.names = names.map { name in
            let key = name.lowercased()
            let lookup = key + ":"
            return Name(key: key, lookup: lookup, lookupLength: Int32(lookup.utf8.count))
        }
    }
}
