package import Foundation

/// One recorded version of a story: when, how, by whom, and the patch from the version before.
package struct HistoryEntry: Sendable, Equatable {
    package let version: Int
    package let at: Date
    package let kind: ChangeKind
    package let source: ChangeSource
    /// The `ref` of the message that caused it, when there was one.
    package let ref: String?
    /// For dispatches: the command that was used.
    package let command: Command?
    /// From the previous version's props to this version's props (empty for version 1).
    package let patch: JSONPatch

    package init(version: Int, at: Date, kind: ChangeKind, source: ChangeSource, ref: String?, command: Command?, patch: JSONPatch) {
        self.version = version
        self.at = at
        self.kind = kind
        self.source = source
        self.ref = ref
        self.command = command
        self.patch = patch
    }

    /// `{"version", "at", "kind", "source", ["author"], ["ref"], ["command"], "patch"}`.
    package var json: JSONValue {
        var members: [String: JSONValue] = [
            "version": .integer(Int64(version)),
            "at": .string(ISO8601.string(from: at)),
            "kind": .string(kind.rawValue),
            "source": .string(source.description),
            "patch": patch.json,
        ]
        if let author = source.author { members["author"] = author.json }
        if let ref { members["ref"] = .string(ref) }
        if let command { members["command"] = .string(command.name) }
        return .object(members)
    }
}
