import DemoCatalog
import Foundation
@testable import PropsCatalog
import Testing

/// History replays the diffs it recorded itself: an edit that was cheap to accept but whose diff
/// costs more than a client's edit may (swapping two large fields) stays seekable, undoable and
/// trimmable, and a stored diff that does not apply is damage, never a crash.
@Suite struct StoryHistoryReplayTests {
    static let profile = "profile-user-profile--default"
    let catalog = try! DemoCatalog.make()
    /// Two fields of 0.6 MB each: the props fit the default 2 MiB limit, and a diff that replaces
    /// both (2.4 MB of work with the document) does not.
    let first = String(repeating: "a", count: 600_000)
    let second = String(repeating: "b", count: 600_000)
    /// Keeps 9 versions once it holds 12, snapshots every 8: the first trim keeps from version 4,
    /// rebuilt from the snapshot of version 1.
    let history = StoryHistory(capacity: 11, snapshotInterval: 8)

    @discardableResult
    private func edit(_ session: inout StorySession, _ edit: Edit) throws -> Change {
        guard case .changed(let change) = try session.apply(edit, source: .http).get() else {
            throw EditError(.conflict, "unchanged")
        }
        return change
    }

    private func patch(_ json: JSONValue) throws -> Edit {
        .patch(try JSONPatch(json: json))
    }

    private func avatar(_ index: Int) throws -> Edit {
        try patch([["op": "replace", "path": "/avatarURL", "value": .string("https://example.com/\(index).png")]])
    }

    /// Versions 2 and 3 fill both fields, version 4 swaps them with three cheap moves.
    private func swapped(_ session: inout StorySession) throws {
        try edit(&session, patch([["op": "replace", "path": "/name", "value": .string(first)]]))
        try edit(&session, patch([["op": "replace", "path": "/email", "value": .string(second)]]))
        try edit(&session, patch([
            ["op": "move", "from": "/name", "path": "/swap"],
            ["op": "move", "from": "/email", "path": "/name"],
            ["op": "move", "from": "/swap", "path": "/email"],
        ]))
        #expect(session.version == 4 && session.props["name"] == .string(second) && session.props["email"] == .string(first))
    }

    @Test func aSwapOfTwoLargeFieldsCanBeUndoneSoughtAndTrimmed() throws {
        var session = try StorySession(story: #require(catalog.story(id: Self.profile)), history: history)
        try swapped(&session)
        let swap = session.props
        try edit(&session, avatar(0))  // 5
        #expect(try edit(&session, .undo).props == swap)  // 6: rebuilt through the swap's diff
        try edit(&session, avatar(1))  // 7
        #expect(try edit(&session, .seek(version: 4)).props == swap)  // 8
        #expect(try Recording(session).steps.map(\.version) == Array(1...8))
        // More versions than the history keeps: the trim rebuilds version 4 as its new oldest.
        for index in 2..<6 { try edit(&session, avatar(index)) }
        #expect(session.version == 12 && session.history.oldestVersion == 4)
        for version in 4...12 {
            #expect(try session.history.props(at: version) != nil, "version \(version)")
        }
        #expect(try edit(&session, .seek(version: 4)).props == swap)
    }

    @Test func aRestoredSwapSurvivesTheTrimOfItsHistory() throws {
        let story = try #require(catalog.story(id: Self.profile))
        // What the journal hands back: every version with its props, and the diff the server recorded.
        var props: JSONValue = ["name": "Ada", "email": "ada@example.com"]
        var versions = [(entry: HistoryEntry(version: 1, at: Date(), kind: .registered, source: .registration, ref: nil, command: nil,
                                             patch: JSONPatch(operations: [])), props: props)]
        func add(_ next: JSONValue) {
            versions.append((HistoryEntry(version: versions.count + 1, at: Date(), kind: .patch, source: .http, ref: nil, command: nil,
                                          patch: JSONPatch.diff(from: props, to: next)), next))
            props = next
        }
        add(["name": .string(first), "email": "ada@example.com"])
        add(["name": .string(first), "email": .string(second)])
        add(["name": .string(second), "email": .string(first)])  // 4: the swap
        for version in 5...12 { add(["name": .string(second), "email": .string(first), "avatarURL": .string("https://example.com/\(version).png")]) }
        let restored = try StorySession(story: story, restoring: versions, history: history)
        #expect(restored.version == 12 && restored.props == props)
        #expect(restored.history.oldestVersion == 4)
        #expect(try restored.history.props(at: 4)?["name"] == .string(second))
    }

    @Test func aStoredPatchThatDoesNotApplyIsDamageNotACrash() throws {
        var history = StoryHistory(capacity: 10, snapshotInterval: 4)
        func entry(_ version: Int, _ patch: JSONValue) throws -> HistoryEntry {
            HistoryEntry(version: version, at: Date(), kind: .patch, source: .http, ref: nil, command: nil, patch: try JSONPatch(json: patch))
        }
        history.record(try entry(1, []), props: ["n": 1])
        history.record(try entry(2, [["op": "remove", "path": "/missing"]]), props: ["n": 2])  // damaged
        for version in 3...8 {
            history.record(try entry(version, [["op": "replace", "path": "/n", "value": .integer(Int64(version))]]), props: ["n": .integer(Int64(version))])
        }
        #expect(throws: HistoryDamage(version: 2, reason: "operation 0 (remove): /missing does not exist")) { try history.props(at: 3) }
        #expect(try history.props(at: 5)?["n"] == 5)  // from the snapshot of 4
        // The trim would keep 9 of 11, from version 3, which the damage hides: it keeps from 4 (a snapshot).
        for version in 9...11 {
            history.record(try entry(version, [["op": "replace", "path": "/n", "value": .integer(Int64(version))]]), props: ["n": .integer(Int64(version))])
        }
        #expect(history.oldestVersion == 4 && history.newestVersion == 11)
        #expect(try history.props(at: 4)?["n"] == 4)
    }

    @Test func aSeekThroughDamageSaysSoAndTheLiveStateStands() throws {
        let story = try #require(catalog.story(id: Self.profile))
        func version(_ number: Int, _ patch: JSONValue, name: String) throws -> (entry: HistoryEntry, props: JSONValue) {
            (HistoryEntry(version: number, at: Date(), kind: .patch, source: .http, ref: nil, command: nil, patch: try JSONPatch(json: patch)),
             ["name": .string(name), "email": "ada@example.com"])
        }
        var session = try StorySession(story: story, restoring: [
            try version(1, [], name: "one"),
            try version(2, [["op": "remove", "path": "/missing"]], name: "two"),  // a stored patch that does not apply
            try version(3, [["op": "replace", "path": "/name", "value": "three"]], name: "three"),
        ])
        let seek = session.apply(.seek(version: 2), source: .http)
        #expect(seek.failure?.code == .unknownVersion)
        #expect(seek.failure?.message.contains("version 2 cannot be rebuilt: the history is damaged") == true)
        #expect { try Recording(session) } throws: { error in "\(error)".contains("cannot be rebuilt") }
        #expect(session.version == 3 && session.props["name"] == "three")  // the live state is untouched
        #expect(try edit(&session, .seek(version: 1)).props["name"] == "one")
    }
}
