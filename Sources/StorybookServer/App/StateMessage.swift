import PropsCatalog

/// The JSON forms of a story's live state, for HTTP answers and WebSocket `state` messages.
enum StateMessage {
    /// `GET /api/stories/{id}`: `{"id", "component", "name", "version", "props", "text", "html", ...}`.
    static func resource(_ session: StorySession) -> JSONValue {
        var members = common(session)
        members["id"] = .string(session.story.id)
        members["component"] = .string(session.story.component.id)
        members["name"] = .string(session.story.name)
        return .object(members)
    }

    /// The WebSocket `state` message; `cause` names the change that made this version.
    static func json(_ session: StorySession, cause: HistoryEntry?) -> JSONValue {
        var members = common(session)
        members["type"] = "state"
        members["story"] = .string(session.story.id)
        if let cause {
            var causeMembers: [String: JSONValue] = [
                "kind": .string(cause.kind.rawValue),
                "source": .string(cause.source.description),
                "at": .string(ISO8601.string(from: cause.at)),
            ]
            if let ref = cause.ref { causeMembers["ref"] = .string(ref) }
            if let command = cause.command { causeMembers["command"] = .string(command.name) }
            members["cause"] = .object(causeMembers)
        }
        return .object(members)
    }

    private static func common(_ session: StorySession) -> [String: JSONValue] {
        [
            "version": .integer(Int64(session.version)),
            "props": session.props,
            "text": .string(session.projections.text),
            "html": .string(session.projections.html),
            "canUndo": .bool(session.canUndo),
            "canRedo": .bool(session.canRedo),
        ]
    }
}
