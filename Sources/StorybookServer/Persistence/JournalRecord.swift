import Foundation
import PropsCatalog

/// One line of the journal: a recorded version of a story, with either the patch from the
/// version before or, for the first version of a story's block, its full props.
struct JournalRecord: Equatable {
    enum Content: Equatable {
        case patch(JSONPatch)
        case props(JSONValue)
    }

    let story: String
    let entry: HistoryEntry
    let content: Content

    /// The record as one JSON line, newline included (members in sorted order, as `JSONValue` writes them).
    var line: [UInt8] { line(splicing: nil) }

    /// The line, with the entry's date and patch taken from `serialized` (the same entry, as the change's
    /// `state` messages wrote it) instead of serialized again.
    func line(splicing serialized: SerializedEntry?) -> [UInt8] {
        assert(serialized.map { $0.entry == entry } ?? true, "the bytes spliced into a journal line are another entry's")
        var writer = JSONObjectWriter(capacity: 256 + (serialized?.patch.count ?? 0))
        if let serialized {
            writer.member("at", json: serialized.at)
        } else {
            writer.member("at", string: ISO8601.string(from: entry.at))
        }
        if let author = entry.source.author { writer.member("author", author.json) }
        if let command = entry.command { writer.member("command", string: command.name) }
        writer.member("kind", string: entry.kind.rawValue)
        switch content {
        case .patch(let patch): writer.member("patch", json: serialized?.patch ?? patch.serializedBytes())
        case .props(let props): writer.member("props", props)
        }
        if let ref = entry.ref { writer.member("ref", string: ref) }
        writer.member("source", string: entry.source.description)
        writer.member("story", string: story)
        writer.member("version", integer: entry.version)
        return writer.finish() + [0x0A]
    }

    /// Reads a record from its JSON; nil when a member is missing or malformed. `author` is optional:
    /// journals written before attribution restore with anonymous entries.
    init?(json: JSONValue) {
        guard let story = json["story"]?.stringValue,
              let version = json["version"]?.integerValue.flatMap({ Int(exactly: $0) }),
              let at = json["at"]?.stringValue.flatMap(ISO8601.date(from:)),
              let kind = json["kind"]?.stringValue.flatMap(ChangeKind.init(rawValue:)),
              let source = json["source"]?.stringValue else { return nil }
        let content: Content
        if let props = json["props"] {
            content = .props(props)
        } else if let patchJSON = json["patch"], let patch = try? JSONPatch(json: patchJSON) {
            content = .patch(patch)
        } else {
            return nil
        }
        let patch: JSONPatch
        if case .patch(let recorded) = content { patch = recorded } else { patch = JSONPatch(operations: []) }
        self.story = story
        self.entry = HistoryEntry(version: version, at: at, kind: kind, source: ChangeSource(source, author: json["author"].flatMap(ChangeAuthor.init(json:))),
                                  ref: json["ref"]?.stringValue, command: json["command"]?.stringValue.map { Command($0) }, patch: patch)
        self.content = content
    }

    init(story: String, entry: HistoryEntry, content: Content) {
        self.story = story
        self.entry = entry
        self.content = content
    }

    /// Every record needed to rebuild a session's retained history: the oldest version in full,
    /// the rest as patches.
    static func records(of session: StorySession) -> [JournalRecord] {
        let entries = session.history.entries
        // The oldest version is a snapshot: reading it replays nothing and cannot fail.
        guard let first = entries.first, let base = try? session.history.props(at: first.version) else { return [] }
        return [JournalRecord(story: session.story.id, entry: first, content: .props(base))]
            + entries.dropFirst().map { JournalRecord(story: session.story.id, entry: $0, content: .patch($0.patch)) }
    }
}
