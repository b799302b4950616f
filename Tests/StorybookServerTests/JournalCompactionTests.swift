import DemoCatalog
import Foundation
import Logging
import PropsCatalog
@testable import StorybookServer
import Synchronization
import Testing

/// A compaction while serving writes its snapshot off the app queue: what is recorded meanwhile
/// goes to the old file and follows the snapshot in the new one, so nothing is lost either way.
@Suite struct JournalCompactionTests {
    static let story = "profile-user-profile--default"
    static let other = "auth-login--empty"
    let catalog = try! DemoCatalog.make()
    let temporary = TemporaryDirectory(prefix: "journal-compaction-")
    var directory: URL { temporary.url }
    let logger = Logger(label: "test")

    /// Holds the background work until the test runs it; brings results back at once (the test is
    /// the only thread, standing in for the app queue).
    final class HeldBackground: Sendable {
        private let held = Mutex<[@Sendable () -> Void]>([])
        var count: Int { held.withLock { $0.count } }

        var scheduling: JournalScheduling {
            JournalScheduling(background: { work in self.held.withLock { $0.append(work) } }, onQueue: { $0() })
        }

        func runAll() {
            for work in held.withLock({ work in defer { work = [] }; return work }) { work() }
        }
    }

    private var lines: [String] {
        get throws {
            try String(contentsOf: directory.appendingPathComponent(Journal.fileName), encoding: .utf8)
                .split(separator: "\n").map(String.init)
        }
    }

    private func rename(_ session: inout StorySession, to name: String, in journal: Journal) throws {
        let patch = try JSONPatch(json: [["op": "replace", "path": "/name", "value": .string(name)]])
        let prepared = try #require(try session.prepare(.patch(patch), source: .http).get())
        try journal.record(SerializedEntry(prepared.entry), of: session)
        _ = session.commit(prepared)
    }

    @Test func recordsAppendedWhileTheSnapshotIsWrittenFollowItInTheNewFile() throws {
        let background = HeldBackground()
        let (journal, _) = try Journal.open(directory: directory, catalog: catalog, logger: logger,
                                            scheduling: background.scheduling, compactionThreshold: 10)
        // A short retained history, so that the snapshot is shorter than the file it replaces.
        var session = try StorySession(story: #require(catalog.story(id: Self.story)), history: StoryHistory(capacity: 5))
        var other = try StorySession(story: #require(catalog.story(id: Self.other)))
        for index in 2...11 {
            try rename(&session, to: "v\(index)", in: journal)
            journal.compactIfNeeded { [session] in [session] }
        }
        #expect(background.count == 1)  // the threshold was reached: one compaction started, not run yet
        #expect(try lines.count == 11)  // the old file: registered snapshot + 10 patches
        let snapshot = JournalRecord.records(of: session).map { String(decoding: $0.line.dropLast(), as: UTF8.self) }
        #expect(snapshot.count < 11)
        // Edits go on meanwhile, to the old file, including a story the snapshot does not hold.
        try rename(&session, to: "v12", in: journal)
        let reset = try #require(try other.prepare(.reset, source: .http).get())
        try journal.record(SerializedEntry(reset.entry), of: other)
        _ = other.commit(reset)
        journal.compactIfNeeded { [session, other] in [session, other] }
        #expect(background.count == 1)  // no second compaction while one runs
        #expect(try lines.count == 14)

        background.runAll()
        let compacted = try lines
        // The retained history in full and as patches (the snapshot and the v11 record written meanwhile), then v12 and the other story's block.
        #expect(Array(compacted.prefix(snapshot.count)) == snapshot)
        #expect(compacted.count == snapshot.count + 3)
        #expect(compacted[snapshot.count].contains(#""version":12"#) && compacted[snapshot.count].contains(Self.story))
        #expect(compacted[snapshot.count + 1].contains(Self.other) && compacted[snapshot.count + 1].contains(#""props":"#))
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(Journal.fileName + ".tmp").path))

        // Appends after the swap go to the new file, as patches (both stories' blocks are in it).
        try rename(&session, to: "v13", in: journal)
        #expect(try lines.count == snapshot.count + 4 && lines.last!.contains(#""patch":"#))
        journal.close()

        let (reopened, restored) = try Journal.open(directory: directory, catalog: catalog, logger: logger)
        reopened.close()
        #expect(restored[Self.story]?.version == 13 && restored[Self.story]?.props["name"] == "v13")
        #expect(restored[Self.other]?.version == 2)
    }

    @Test func aCompactionThatFinishesAfterCloseLeavesTheOldFileAsItWas() throws {
        let background = HeldBackground()
        let (journal, _) = try Journal.open(directory: directory, catalog: catalog, logger: logger,
                                            scheduling: background.scheduling, compactionThreshold: 3)
        var session = try StorySession(story: #require(catalog.story(id: Self.story)))
        for index in 2...4 {
            try rename(&session, to: "v\(index)", in: journal)
            journal.compactIfNeeded { [session] in [session] }
        }
        let before = try lines
        journal.close()
        background.runAll()
        #expect(try lines == before)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(Journal.fileName + ".tmp").path))
    }

    @Test func withoutSchedulingTheCompactionRunsAtOnce() throws {
        let (journal, _) = try Journal.open(directory: directory, catalog: catalog, logger: logger, compactionThreshold: 8)
        var session = try StorySession(story: #require(catalog.story(id: Self.story)), history: StoryHistory(capacity: 5))
        for index in 2...9 {
            try rename(&session, to: "v\(index)", in: journal)
            journal.compactIfNeeded { [session] in [session] }
        }
        journal.close()
        let snapshot = JournalRecord.records(of: session).map { String(decoding: $0.line.dropLast(), as: UTF8.self) }
        #expect(snapshot.count < 9)
        #expect(try lines == snapshot)
    }
}
