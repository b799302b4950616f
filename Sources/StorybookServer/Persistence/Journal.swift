import Foundation
import Logging
import PropsCatalog

/// The append-only journal under the state directory: every accepted change is written here
/// before anyone is told of it, so a crash or restart loses no acknowledged change.
///
/// Appends go straight to the file with `write(2)` (no user-space buffer): they survive the process
/// being killed at any moment. The journal is compacted at start-up and every `compactionThreshold`
/// records: each story's retained history is rewritten as one full snapshot plus patches, into a
/// temporary file that is synced and renamed over the journal.
///
/// Used from the app's serial queue only.
final class Journal {
    static let fileName = "journal.jsonl"
    static let compactionThreshold = 20_000

    let directory: URL
    private var handle: FileHandle
    private let logger: Logger
    /// Stories whose block (a full snapshot first) is already in the current file.
    private var journaled: Set<String> = []
    private var recordsSinceCompaction = 0

    private var fileURL: URL { directory.appendingPathComponent(Self.fileName) }

    /// Opens (or creates) the journal in `directory` and restores every story it records.
    /// Stories whose records no longer decode are set aside in `set-aside/` with a warning.
    static func open(directory: URL, catalog: Catalog, logger: Logger) throws -> (Journal, [String: StorySession]) {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let url = directory.appendingPathComponent(fileName)
        let data = FileManager.default.contents(atPath: url.path) ?? Data()
        let reader = JournalReader(bytes: [UInt8](data))
        let restorer = JournalRestorer(catalog: catalog, directory: directory, logger: logger)
        let sessions = restorer.restore(reader)
        let journal = try Journal(directory: directory, logger: logger)
        try journal.compact(Array(sessions.values))
        if !sessions.isEmpty {
            logger.info("restored \(sessions.count) stories from \(url.path)")
        }
        return (journal, sessions)
    }

    private init(directory: URL, logger: Logger) throws {
        self.directory = directory
        self.logger = logger
        let url = directory.appendingPathComponent(Self.fileName)
        if !FileManager.default.fileExists(atPath: url.path) {
            _ = FileManager.default.createFile(atPath: url.path, contents: nil)
        }
        handle = try FileHandle(forWritingTo: url)
        try handle.seekToEnd()
    }

    /// Records an accepted change before it is made or acknowledged: `entry` and its resulting
    /// `props`, `session` as it is before the change. Throws when the change cannot be saved: it
    /// must then not be made.
    func record(_ entry: HistoryEntry, props: JSONValue, of session: StorySession) throws(EditError) {
        let storyID = session.story.id
        var records: [JournalRecord] = []
        if !journaled.contains(storyID) {
            records = JournalRecord.records(of: session)
        }
        records.append(JournalRecord(story: storyID, entry: entry, content: .patch(entry.patch)))
        do {
            try handle.write(contentsOf: Data(records.flatMap(\.line)))
        } catch {
            logger.error("journal write failed: \(error)")
            throw EditError(.storageFailed, "the change could not be saved to the journal: \(error)")
        }
        journaled.insert(storyID)
        recordsSinceCompaction += records.count
    }

    /// Compacts once enough records were appended since the last compaction.
    func compactIfNeeded(_ sessions: () -> [StorySession]) {
        guard recordsSinceCompaction >= Self.compactionThreshold else { return }
        do {
            try compact(sessions())
        } catch {
            logger.error("journal compaction failed, appending to the old file: \(error)")
        }
    }

    /// Rewrites the journal as one block per story (snapshot + patches), atomically.
    func compact(_ sessions: [StorySession]) throws {
        let temporary = directory.appendingPathComponent(Self.fileName + ".tmp")
        var bytes: [UInt8] = []
        var stories: Set<String> = []
        for session in sessions.sorted(by: { $0.story.id < $1.story.id }) where session.version > 1 {
            bytes += JournalRecord.records(of: session).flatMap(\.line)
            stories.insert(session.story.id)
        }
        _ = FileManager.default.createFile(atPath: temporary.path, contents: nil)
        let output = try FileHandle(forWritingTo: temporary)
        try output.write(contentsOf: Data(bytes))
        try output.synchronize()
        try output.close()
        guard rename(temporary.path, fileURL.path) == 0 else {
            throw CocoaError(.fileWriteUnknown, userInfo: [NSFilePathErrorKey: fileURL.path])
        }
        try? handle.close()
        handle = try FileHandle(forWritingTo: fileURL)
        try handle.seekToEnd()
        journaled = stories
        recordsSinceCompaction = 0
    }

    func close() {
        try? handle.synchronize()
        try? handle.close()
    }
}
