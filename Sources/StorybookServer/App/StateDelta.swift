import PropsCatalog

/// A `state` message that carries only what changed since the version before it, for subscribers
/// that asked for deltas (`subscribe` with `"delta": true`):
///
/// ```json
/// {"type": "state", "story": "...", "version": 8, "base": 7, "canUndo": true, "canRedo": false,
///  "cause": {...}, "delta": {"props": [RFC 6902 ops], "text": {"at": 120, "remove": 5, "insert": "Grace"},
///                            "html": {"at": 480, "remove": 5, "insert": "Grace"}}}
/// ```
///
/// The props patch is the history entry's (made from the change, not from the whole props), and each
/// projection's splice keeps what the two versions share at both ends (``TextSplice``), so an edit
/// of one row of a long list sends that row.
struct StateDelta {
    let message: [UInt8]

    /// The delta from the version whose projections were `previous` to the session's live version,
    /// which `cause` made.
    init(from previous: Projections, to session: StorySession, cause: SerializedEntry) {
        let (text, html) = session.projections.splices(from: previous)
        var delta = JSONObjectWriter(capacity: 128 + text.inserted.utf8.count + html.inserted.utf8.count)
        delta.member("html", json: Self.splice(html))
        delta.member("props", json: cause.patch)
        delta.member("text", json: Self.splice(text))
        var writer = JSONObjectWriter(capacity: 256 + text.inserted.utf8.count + html.inserted.utf8.count)
        writer.member("base", integer: session.version - 1)
        writer.member("canRedo", bool: session.canRedo)
        writer.member("canUndo", bool: session.canUndo)
        writer.member("cause", json: cause.cause)
        writer.member("delta", json: delta.finish())
        writer.member("story", string: session.story.id)
        writer.member("type", string: "state")
        writer.member("version", integer: session.version)
        message = writer.finish()
    }

    private static func splice(_ splice: TextSplice) -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 48 + splice.inserted.utf8.count)
        writer.member("at", integer: splice.offset)
        writer.member("insert", string: splice.inserted)
        writer.member("remove", integer: splice.removed)
        return writer.finish()
    }
}
