import PropsCatalog

/// A story's recorded history: `{"story", "version", "oldest", "entries": [{"version", "at", "kind", ...}]}`.
enum HistoryMessage {
    static func json(_ session: StorySession, since: Int?) -> JSONValue {
        .object([
            "story": .string(session.story.id),
            "version": .integer(Int64(session.version)),
            "oldest": session.history.oldestVersion.map { .integer(Int64($0)) } ?? .null,
            "capacity": .integer(Int64(session.history.capacity)),
            "entries": .array(session.history.entries(since: since).map(\.json)),
        ])
    }
}
