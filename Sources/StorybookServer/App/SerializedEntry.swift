import PropsCatalog

/// An accepted change's history entry in the bytes the journal and the `state` messages write of it,
/// serialized once per change: its date and its patch went into the journal's line and into the
/// delta's `cause` and `props` each (about 8k instructions a change, twice).
struct SerializedEntry {
    let entry: HistoryEntry
    /// `"2026-11-22T10:00:00.250Z"`, quotes included.
    let at: [UInt8]
    /// The RFC 6902 patch from the version before.
    let patch: [UInt8]
    /// The `cause` member of `state` messages: `{"at", ["author"], ["command"], "kind", ["ref"], "source"}`.
    let cause: [UInt8]

    init(_ entry: HistoryEntry) {
        self.entry = entry
        var at: [UInt8] = [UInt8(ascii: "\"")]
        at.reserveCapacity(29)
        ISO8601.append(entry.at, to: &at)
        at.append(UInt8(ascii: "\""))
        self.at = at
        patch = entry.patch.serializedBytes()
        var writer = JSONObjectWriter(capacity: 160)
        writer.member("at", json: at)
        if let author = entry.source.author { writer.member("author", author.json) }
        if let command = entry.command { writer.member("command", string: command.name) }
        writer.member("kind", string: entry.kind.rawValue)
        if let ref = entry.ref { writer.member("ref", string: ref) }
        writer.member("source", string: entry.source.description)
        cause = writer.finish()
    }
}
