import DemoCatalog
import Foundation
import Logging
import PropsCatalog
@testable import StorybookServer
import Testing

/// A journal is replayed as what the server itself recorded: a diff that costs more than a client's
/// edit may (a swap of two large fields) restores, and the history trimmed at start-up keeps it.
@Suite struct JournalReplayTests {
    static let story = "profile-user-profile--default"
    let catalog = try! DemoCatalog.make()
    let temporary = TemporaryDirectory(prefix: "journal-replay-")
    var directory: URL { temporary.url }
    let logger = Logger(label: "test")

    private func record(_ version: Int, _ content: JournalRecord.Content) -> [UInt8] {
        let patch: JSONPatch
        if case .patch(let recorded) = content { patch = recorded } else { patch = JSONPatch(operations: []) }
        let entry = HistoryEntry(version: version, at: Date(), kind: version == 1 ? .registered : .patch, source: .http,
                                 ref: nil, command: nil, patch: patch)
        return JournalRecord(story: Self.story, entry: entry, content: content).line
    }

    private func replace(_ path: String, _ value: JSONValue) throws -> JournalRecord.Content {
        .patch(try JSONPatch(json: [["op": "replace", "path": .string(path), "value": value]]))
    }

    @Test func aSwapOfTwoLargeFieldsRestoresPastTheTrimOfItsHistory() throws {
        let first = String(repeating: "a", count: 900_000)
        let second = String(repeating: "b", count: 900_000)
        // Start-up keeps the newest 900 of 1,001 versions, from 102, rebuilt from the snapshot of 96:
        // the swap at 100 is on the way.
        let newest = StoryHistory.defaultCapacity + 1
        let swap = 100
        // The diff the server records for a swap: both fields replaced, 3.6 MB of work with the document.
        let swapped = try JSONPatch(json: [
            ["op": "replace", "path": "/email", "value": .string(first)], ["op": "replace", "path": "/name", "value": .string(second)],
        ])
        var bytes = record(1, .props(["name": "Ada", "email": "ada@example.com", "avatarURL": nil]))
        bytes += record(2, try replace("/name", .string(first)))
        bytes += record(3, try replace("/email", .string(second)))
        for version in 4...newest {
            bytes += record(version, version == swap ? .patch(swapped) : try replace("/avatarURL", .string("https://example.com/\(version).png")))
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        try Data(bytes).write(to: directory.appendingPathComponent(Journal.fileName))

        for _ in 0..<2 {  // the restore, then the compacted journal it wrote
            let (journal, sessions) = try Journal.open(directory: directory, catalog: catalog, logger: logger)
            journal.close()
            let session = try #require(sessions[Self.story])
            #expect(session.version == newest && session.props["name"] == .string(second))
            let oldest = try #require(session.history.oldestVersion)
            #expect(oldest > swap && oldest - swap < StoryHistory.defaultSnapshotInterval)
            #expect(try session.history.props(at: oldest)?["email"] == .string(first))
        }
    }
}
