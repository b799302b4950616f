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
/// Used from the app's serial queue only (`@unchecked Sendable` for that reason). With a
/// ``JournalScheduling``, a compaction while serving writes and syncs its snapshot off that queue:
/// edits go on being appended to the old file meanwhile, and are appended to the new one too before
/// it replaces the old.
final class Journal: @unchecked Sendable {
    static let fileName = "journal.jsonl"
    static let defaultCompactionThreshold = 20_000

    /// A compaction whose snapshot is being written off the app queue, and what was appended meanwhile.
    private struct Compaction {
        var appended: [UInt8] = []
        var stories: Set<String> = []
        var records = 0
    }

    let directory: URL
    /// This server's claim on the directory, until `close()`.
    private var lock: StateDirectoryLock?
    private var descriptor: Int32
    private let logger: Logger
    private let scheduling: JournalScheduling?
    private let compactionThreshold: Int
    private var compaction: Compaction?
    private var isClosed = false
    /// Stories whose block (a full snapshot first) is already in the current file.
    private var journaled: Set<String> = []
    private var recordsSinceCompaction = 0
    /// The file's length up to its last whole record: where the next append starts.
    private var wholeLength: off_t
    /// A failed append left bytes past `wholeLength` that could not be cut off yet.
    private var needsRepair = false

    private var fileURL: URL { directory.appendingPathComponent(Self.fileName) }
    private var temporaryURL: URL { directory.appendingPathComponent(Self.fileName + ".tmp") }

    /// Opens (or creates) the journal in `directory` and restores every story it records.
    /// Stories whose records no longer decode are set aside in `set-aside/` with a warning. The
    /// compaction at start-up runs here; later ones run through `scheduling` (inline without it).
    static func open(
        directory: URL, catalog: Catalog, logger: Logger,
        scheduling: JournalScheduling? = nil, compactionThreshold: Int = defaultCompactionThreshold
    ) throws(JournalError) -> (Journal, [String: StorySession]) {
        // Past a file size limit, write(2) fails with EFBIG instead of the process being killed.
        signal(SIGXFSZ, SIG_IGN)
        try JournalError.check(directory: directory)
        let lock = try StateDirectoryLock(directory: directory)
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
        let journal = try Journal(directory: directory, lock: lock, wholeLength: off_t(reader.wholeLength), logger: logger,
                                  scheduling: scheduling, compactionThreshold: compactionThreshold)
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

    private init(
        directory: URL, lock: StateDirectoryLock, wholeLength: off_t, logger: Logger, scheduling: JournalScheduling?, compactionThreshold: Int
    ) throws(JournalError) {
        self.directory = directory
        self.lock = lock
        self.logger = logger
        self.scheduling = scheduling
        self.compactionThreshold = compactionThreshold
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

    /// Records an accepted change before it is made or acknowledged (its entry serialized once, for
    /// the journal and the state messages), `session` as it is before the change. Throws when the
    /// change cannot be saved: it must then not be made.
    func record(_ change: SerializedEntry, of session: StorySession) throws(APIError) {
        let storyID = session.story.id
        // A story's first record in this file comes after its retained history (a snapshot and patches).
        let earlier = journaled.contains(storyID) ? [] : JournalRecord.records(of: session)
        let record = JournalRecord(story: storyID, entry: change.entry, content: .patch(change.entry.patch))
        guard repairIfNeeded() else {
            throw APIError(.storageFailed, "the change could not be saved: the journal cannot be repaired after a failed write (\(JournalError.describe(errno: errno)))")
        }
        let bytes = earlier.flatMap(\.line) + record.line(splicing: change)
        if let failure = append(bytes) {
            logger.error("journal write failed: \(JournalError.describe(errno: failure))")
            needsRepair = true
            _ = repairIfNeeded()
            throw APIError(.storageFailed, "the change could not be saved to the journal: \(JournalError.describe(errno: failure))")
        }
        wholeLength += off_t(bytes.count)
        journaled.insert(storyID)
        recordsSinceCompaction += earlier.count + 1
        if compaction != nil {
            compaction?.appended += bytes
            compaction?.stories.insert(storyID)
            compaction?.records += earlier.count + 1
        }
    }

    /// Writes all of `bytes` at the end of the whole records; the errno of a failure, or nil.
    private func append(_ bytes: [UInt8]) -> Int32? {
        Self.writeAll(bytes, to: descriptor, at: wholeLength)
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

    /// Compacts once enough records were appended since the last compaction: in the background
    /// with a ``JournalScheduling``, at once without one. `sessions` is read only then.
    func compactIfNeeded(_ sessions: () -> [StorySession]) {
        guard compaction == nil, !isClosed, recordsSinceCompaction >= compactionThreshold else { return }
        guard let scheduling else {
            do {
                try compact(sessions())
            } catch {
                compactionFailed(error)
            }
            return
        }
        let clock = ContinuousClock()
        let started = clock.now
        let snapshot = sessions()
        let temporary = temporaryURL
        compaction = Compaction()
        let copied = clock.now - started
        scheduling.background {
            let writing = clock.now
            let written = Result { () throws(JournalError) in try Self.writeSnapshot(of: snapshot, to: temporary) }
            let wrote = clock.now - writing
            scheduling.onQueue { self.finishCompaction(written, timings: (copied, wrote)) }
        }
    }

    /// Rewrites the journal as one block per story (snapshot + patches), atomically.
    func compact(_ sessions: [StorySession]) throws(JournalError) {
        let written = try Self.writeSnapshot(of: sessions, to: temporaryURL)
        try replace(with: written, appended: Compaction())
    }

    /// Back on the app queue: appends what was recorded while the snapshot was written, then puts
    /// the new file in place of the old.
    private func finishCompaction(_ written: Result<WrittenSnapshot, JournalError>, timings: (copied: Duration, wrote: Duration)) {
        guard let appended = compaction, !isClosed else {
            unlink(temporaryURL.path)
            return
        }
        compaction = nil
        let clock = ContinuousClock()
        let started = clock.now
        do {
            let snapshot = try written.get()
            try replace(with: snapshot, appended: appended)
            let onQueue = timings.copied + (clock.now - started)
            logger.info("journal compacted", metadata: [
                "sb.bytes": "\(snapshot.length + appended.appended.count)", "sb.stories": "\(journaled.count)",
                "sb.records-meanwhile": "\(appended.records)",
                "sb.background-ms": "\(Self.milliseconds(timings.wrote))", "sb.app-queue-ms": "\(Self.milliseconds(onQueue))",
            ])
        } catch {
            unlink(temporaryURL.path)
            compactionFailed(error)
        }
    }

    private static func milliseconds(_ duration: Duration) -> String {
        let (seconds, attoseconds) = duration.components
        let value = Double(seconds) * 1_000 + Double(attoseconds) / 1e15
        return String(format: "%.2f", value)
    }

    private func compactionFailed(_ error: JournalError) {
        // The old file holds every record; try again after as many records as a compaction waits for.
        recordsSinceCompaction = 0
        logger.error("journal compaction failed, appending to the old file: \(error.message)")
    }

    /// A snapshot written to the temporary file and synced: its length and the stories it holds.
    struct WrittenSnapshot: Sendable {
        let length: Int
        let stories: Set<String>
    }

    /// Writes every session's retained history (one block per story with more than its registered
    /// version) to `temporary` and syncs it. Touches no journal state: it may run on any thread.
    private static func writeSnapshot(of sessions: [StorySession], to temporary: URL) throws(JournalError) -> WrittenSnapshot {
        var bytes: [UInt8] = []
        var stories: Set<String> = []
        for session in sessions.sorted(by: { $0.story.id < $1.story.id }) where session.version > 1 {
            bytes += JournalRecord.records(of: session).flatMap(\.line)
            stories.insert(session.story.id)
        }
        let output = Foundation.open(temporary.path, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0o644)
        guard output >= 0 else { throw JournalError("cannot write \(temporary.path): \(JournalError.describe(errno: errno))") }
        defer { Foundation.close(output) }
        if let failure = writeAll(bytes, to: output, at: 0) {
            unlink(temporary.path)
            throw JournalError("cannot write \(temporary.path): \(JournalError.describe(errno: failure))")
        }
        guard fsync(output) == 0 else {
            let failure = errno
            unlink(temporary.path)
            throw JournalError("cannot sync \(temporary.path): \(JournalError.describe(errno: failure))")
        }
        return WrittenSnapshot(length: bytes.count, stories: stories)
    }

    /// Appends the records written meanwhile to the synced snapshot and renames it over the journal.
    private func replace(with written: WrittenSnapshot, appended: Compaction) throws(JournalError) {
        let temporary = temporaryURL
        // The new descriptor is opened before the rename and follows the file through it: there is no
        // moment where the journal has been replaced but cannot be written (a failed open after the
        // rename would leave appends going to the old, unlinked file: acknowledged, then lost). Any
        // failure here leaves the old journal as it was, still the one appended to.
        let replacement = Foundation.open(temporary.path, O_WRONLY | O_CLOEXEC)
        guard replacement >= 0 else { throw JournalError("cannot reopen \(temporary.path): \(JournalError.describe(errno: errno))") }
        if let failure = Self.writeAll(appended.appended, to: replacement, at: off_t(written.length)) {
            Foundation.close(replacement)
            throw JournalError("cannot write \(temporary.path): \(JournalError.describe(errno: failure))")
        }
        guard rename(temporary.path, fileURL.path) == 0 else {
            let failure = errno
            Foundation.close(replacement)
            unlink(temporary.path)
            throw JournalError("cannot replace \(fileURL.path): \(JournalError.describe(errno: failure))")
        }
        Foundation.close(descriptor)
        descriptor = replacement
        wholeLength = off_t(written.length + appended.appended.count)
        needsRepair = false
        journaled = written.stories.union(appended.stories)
        recordsSinceCompaction = appended.records
    }

    /// Writes all of `bytes` at `offset`; the errno of a failure, or nil.
    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, at offset: off_t) -> Int32? {
        var written = 0
        while written < bytes.count {
            let count = bytes[written...].withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, offset + off_t(written)) }
            if count < 0 {
                if errno == EINTR { continue }
                return errno
            }
            if count == 0 { return ENOSPC }
            written += count
        }
        return nil
    }

    /// Syncs and closes the file, then lets go of the directory; a compaction still running is dropped
    /// (the old file is complete).
    func close() {
        isClosed = true
        fsync(descriptor)
        Foundation.close(descriptor)
        lock = nil
    }
}
