import Foundation

/// One server's claim on a state directory: an exclusive `flock(2)` on `<directory>/lock`, held while
/// the journal is open and dropped by the kernel when the process ends, however it ends.
///
/// Two servers on one directory would lose changes: the second one's start-up compaction renames a
/// new journal over the file the first one goes on appending to. So the second is refused before it
/// reads anything, with the first one's process id (which the lock file holds) in the message.
final class StateDirectoryLock: Sendable {
    static let fileName = "lock"

    private let descriptor: Int32

    /// Takes the lock, or fails with a message that says who holds it and what to do.
    init(directory: URL) throws(JournalError) {
        let path = directory.appendingPathComponent(Self.fileName).path
        let descriptor = Foundation.open(path, O_RDWR | O_CREAT | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else {
            throw JournalError("cannot open the lock file \(path): \(JournalError.describe(errno: errno))")
        }
        guard flock(descriptor, LOCK_EX | LOCK_NB) == 0 else {
            let failure = errno
            let holder = Self.holder(descriptor)
            Foundation.close(descriptor)
            guard failure == EWOULDBLOCK else {
                throw JournalError("cannot lock the state directory \(directory.path): \(JournalError.describe(errno: failure))")
            }
            let who = holder.map { "another storybook server (process \($0))" } ?? "another storybook server"
            throw JournalError("the state directory \(directory.path) is in use by \(who): stop it, choose another with --state-dir, or run with --no-persist")
        }
        let pid = Array("\(getpid())\n".utf8)
        _ = ftruncate(descriptor, 0)
        _ = pid.withUnsafeBytes { pwrite(descriptor, $0.baseAddress, $0.count, 0) }
        self.descriptor = descriptor
    }

    deinit {
        Foundation.close(descriptor)
    }

    /// The process id the holder wrote, if the file holds one.
    private static func holder(_ descriptor: Int32) -> Int? {
        var buffer = [UInt8](repeating: 0, count: 32)
        let count = buffer.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count > 0 else { return nil }
        return Int(String(decoding: buffer[..<count], as: UTF8.self).trimmingCharacters(in: .whitespacesAndNewlines))
    }
}
