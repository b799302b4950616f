import Foundation

/// What kind of edit made a version.
package enum ChangeKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Version 1: the registered variant.
    case registered
    case replace, patch, reset, dispatch, undo, redo, seek, replay
}

/// An edit as a value, before validation.
package enum Edit: Sendable, Equatable {
    /// New props, whole.
    case replace(JSONValue)
    /// An RFC 6902 patch of the live props.
    case patch(JSONPatch)
    /// Back to the registered variant.
    case reset
    /// A command used in the view; the component's suggestion, if any, becomes the next version.
    case dispatch(CommandInvocation)
    case undo
    case redo
    /// Make the props of a past version live again, as a new version.
    case seek(version: Int)
    /// One recorded state played back.
    case replay(JSONValue)

    var kind: ChangeKind {
        switch self {
        case .replace: .replace
        case .patch: .patch
        case .reset: .reset
        case .dispatch: .dispatch
        case .undo: .undo
        case .redo: .redo
        case .seek: .seek
        case .replay: .replay
        }
    }
}

/// Who asked for an edit: a WebSocket connection, an HTTP request, an MCP client, a replay, the
/// journal; with the author's name and kind when the client said who it is.
package struct ChangeSource: Sendable, Hashable, CustomStringConvertible {
    /// `ws:<connection>`, `http`, `mcp:<client name>`, `replay`, `registration`.
    package let description: String
    /// The name and kind the client identified itself with; nil when anonymous.
    package let author: ChangeAuthor?

    package init(_ description: String, author: ChangeAuthor? = nil) {
        self.description = description
        self.author = author
    }

    package static let http = ChangeSource("http")
    package static let replay = ChangeSource("replay")
    package static let registration = ChangeSource("registration")
    package static func webSocket(_ connection: UInt64, author: ChangeAuthor? = nil) -> ChangeSource {
        ChangeSource("ws:\(connection)", author: author)
    }
}

/// An accepted change: the new live state of a story and the history entry that records it.
package struct Change: Sendable, Equatable {
    package let storyID: String
    package let version: Int
    package let props: JSONValue
    package let projections: Projections
    package let entry: HistoryEntry
}

/// The result of an accepted edit: a new version, or nothing to change (a command with no suggestion).
package enum EditOutcome: Sendable, Equatable {
    case changed(Change)
    case unchanged
}
