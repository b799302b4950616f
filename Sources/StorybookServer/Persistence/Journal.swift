import Foundation
import Logging
import PropsCatalog

/// The append-only journal under the state directory: every accepted change is written here
/// before anyone is told of it, so a crash or restart loses no acknowledged change.
///
/// Appends go straight to the file with `write(2)` (no user-space buffer): they survive the process
/// being killed at any moment. A failed append (a full disk, a file size limit) is cut back to the
/// last whole record before anything else is written, so no later record is ever glued to a fragment;
/// while that cannot be done, every change is refused. The journal is compacted at start-up and every
/// `compactionThreshold` records: each story's retained history is rewritten as one full snapshot plus
/// patches, into a temporary file that is synced and renamed over the journal.
///
/// Used from the app's serial queue only.
final class Journal {
    static let fileName = "journal.jsonl"
    static let compactionThreshold = 20_000

    let directory: URL
    private var descriptor: Int32
    private let logger: Logger
    /// Stories whose block (a full snapshot first) is already in the current file.
    private var journaled: Set<String> = []
    private var recordsSinceCompaction = 0
    /// The file's length up to its last whole record: where the next append starts.
    private var wholeLength: off_t
    /// A failed append left bytes past `wholeLength` that could not be cut off yet.
    private var needsRepair = false

    private var fileURL: URL { directory.appendingPathComponent(Self.fileName) }

    /// Opens (or creates) the journal in `directory` and restores every story it records.
    /// Stories whose records no longer decode are set aside in `set-aside/` with a warning.
    static func open(directory: URL, catalog: Catalog, logger: Logger) throws(JournalError) -> (Journal, [String: StorySession]) {
        // Past a file size limit, write(2) fails with EFBIG instead of the process being killed.
        signal(SIGXFSZ, SIG_IGN)
        try JournalError.check(directory: directory)
        let url = directory.appendingPathComponent(fileName)
        let data: Data
        do {
            data = FileManager.default.fileExists(atPath: url.path) ? try Data(contentsOf: url) : Data()
        } catch {
            throw JournalError("cannot read the journal \(url.path): \(JournalError.describe(error))")
        }
        let reader = JournalReader(bytes: [UInt8](data))
        let restorer = JournalRestorer(catalog: catalog, directory: directory, logger: logger)
        let sessions = restorer.restore(reader)
        let journal = try Journal(directory: directory, wholeLength: off_t(reader.wholeLength), logger: logger)
        do {
            try journal.compact(Array(sessions.values))
        } catch {
            // The old file stays: every story starts a new block (a full snapshot) with its next record.
            logger.warning("journal: compaction at start-up failed (\(error.message)); appending to the journal as it is")
        }
        if !sessions.isEmpty {
            logger.info("restored \(sessions.count) stories from \(url.path)")
        }
        return (journal, sessions)
    }

    private init(directory: URL, wholeLength: off_t, logger: Logger) throws(JournalError) {
        self.directory = directory
        self.logger = logger
        let path = directory.appendingPathComponent(Self.fileName).path
        descriptor = Foundation.open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw JournalError("cannot open the journal \(path) for writing: \(JournalError.describe(errno: errno))")
        }
        self.wholeLength = wholeLength
        // Whatever follows the last whole record (a torn write) goes before anything is appended.
        needsRepair = lseek(descriptor, 0, SEEK_END) != wholeLength
        _ = repairIfNeeded()
    }

    /// Records an accepted change before it is made or acknowledged: `entry` and its resulting
    /// `props`, `session` as it is before the change. Throws when the change cannot be saved: it
    /// must then not be made.
    func record(_ entry: HistoryEntry, props: JSONValue, of session: StorySession) throws(APIError) {
        let storyID = session.story.id
        var records: [JournalRecord] = []
        if !journaled.contains(storyID) {
            records = JournalRecord.records(of: session)
        }
        records.append(JournalRecord(story: storyID, entry: entry, content: .patch(entry.patch)))
        guard repairIfNeeded() else {
            throw APIError(.storageFailed, "the change could not be saved: the journal cannot be repaired after a failed write (\(JournalError.describe(errno: errno)))")
        }
        let bytes = records.flatMap(\.line)
        if let failure = append(bytes) {
            logger.error("journal write failed: \(JournalError.describe(errno: failure))")
            needsRepair = true
            _ = repairIfNeeded()
            throw APIError(.storageFailed, "the change could not be saved to the journal: \(JournalError.describe(errno: failure))")
        }
        wholeLength += off_t(bytes.count)
        journaled.insert(storyID)
        recordsSinceCompaction += records.count
    }

    /// Writes all of `bytes` at the end of the whole records; the errno of a failure, or nil.
    private func append(_ bytes: [UInt8]) -> Int32? {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, wholeLength + off_t(written)) }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if count == 0 { return ENOSPC }
            written += count
        }
        return nil
    }

    /// Cuts a failed append back to the last whole record; false while that is impossible.
    private func repairIfNeeded() -> Bool {
        guard needsRepair else { return true }
        guard ftruncate(descriptor, wholeLength) == 0 else {
            logger.error("journal: cannot cut a failed write back to the last whole record: \(JournalError.describe(errno: errno))")
            return false
        }
        needsRepair = false
        return true
    }

    /// Compacts once enough records were appended since the last compaction.
    func compactIfNeeded(_ sessions: () -> [StorySession]) {
        guard recordsSinceCompaction >= Self.compactionThreshold else { return }
        do {
            try compact(sessions())
        } catch {
            logger.error("journal compaction failed, appending to the old file: \(error.message)")
        }
    }

    /// Rewrites the journal as one block per story (snapshot + patches), atomically.
    func compact(_ sessions: [StorySession]) throws(JournalError) {
        let temporary = directory.appendingPathComponent(Self.fileName + ".tmp")
        var bytes: [UInt8] = []
        var stories: Set<String> = []
        for session in sessions.sorted(by: { $0.story.id < $1.story.id }) where session.version > 1 {
            bytes += JournalRecord.records(of: session).flatMap(\.line)
            stories.insert(session.story.id)
        }
        let output = Foundation.open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw JournalError("cannot write \(temporary.path): \(JournalError.describe(errno: errno))") }
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { write(output, $0.baseAddress, $0.count) }
            if count < 0, errno == EINTR { continue }
            guard count > 0 else {
                let failure = count < 0 ? errno : ENOSPC
                Foundation.close(output)
                unlink(temporary.path)
                throw JournalError("cannot write \(temporary.path): \(JournalError.describe(errno: failure))")
            }
            written += count
        }
        guard fsync(output) == 0 else {
            let failure = errno
            Foundation.close(output)
            unlink(temporary.path)
            throw JournalError("cannot sync \(temporary.path): \(JournalError.describe(errno: failure))")
        }
        Foundation.close(output)
        guard rename(temporary.path, fileURL.path) == 0 else {
            let failure = errno
            unlink(temporary.path)
            throw JournalError("cannot replace \(fileURL.path): \(JournalError.describe(errno: failure))")
        }
        let reopened = Foundation.open(fileURL.path, O_WRONLY | O_CLOEXEC)
        guard reopened >= 0 else { throw JournalError("cannot reopen \(fileURL.path): \(JournalError.describe(errno: errno))") }
        Foundation.close(descriptor)
        descriptor = reopened
        wholeLength = off_t(bytes.count)
        needsRepair = false
        journaled = stories
        recordsSinceCompaction = 0
    }

    func close() {
        fsync(descriptor)
        Foundation.close(descriptor)
    }
}
