import Foundation

/// What kind of edit made a version.
public enum ChangeKind: String, Sendable, Hashable, Codable, CaseIterable {
    /// Version 1: the registered variant.
    case registered
    case replace, patch, reset, dispatch, undo, redo, seek, replay
}

/// An edit as a value, before validation.
public enum Edit: Sendable, Equatable {
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
public struct ChangeSource: Sendable, Hashable, CustomStringConvertible {
    /// `ws:<connection>`, `http`, `mcp:<client name>`, `replay`, `registration`.
    public let description: String
    /// The name and kind the client identified itself with; nil when anonymous.
    public let author: ChangeAuthor?

    public init(_ description: String, author: ChangeAuthor? = nil) {
        self.description = description
        self.author = author
    }

    public static let http = ChangeSource("http")
    public static let replay = ChangeSource("replay")
    public static let registration = ChangeSource("registration")
    public static func webSocket(_ connection: UInt64, author: ChangeAuthor? = nil) -> ChangeSource {
        ChangeSource("ws:\(connection)", author: author)
    }
}

/// An accepted change: the new live state of a story and the history entry that records it.
public struct Change: Sendable, Equatable {
    public let storyID: String
    public let version: Int
    public let props: JSONValue
    public let projections: Projections
    public let entry: HistoryEntry
}

/// The result of an accepted edit: a new version, or nothing to change (a command with no suggestion).
public enum EditOutcome: Sendable, Equatable {
    case changed(Change)
    case unchanged
}
