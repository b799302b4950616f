import Foundation

/// Why the journal cannot be opened, written or compacted, in words that say what to do.
struct JournalError: Error, CustomStringConvertible {
    let message: String

    init(_ message: String) {
        self.message = message
    }

    var description: String { message }

    /// Fails with a message that says so when the state directory is missing and cannot be made,
    /// is not a directory, or is not writable.
    static func check(directory: URL) throws(JournalError) {
        let path = directory.path
        var isDirectory: ObjCBool = false
        if !FileManager.default.fileExists(atPath: path, isDirectory: &isDirectory) {
            guard mkdir(path, 0o755) == 0 || errno == EEXIST else {
                let failure = errno
                let parent = directory.deletingLastPathComponent().path
                if failure == ENOENT {
                    throw JournalError("the state directory \(path) is missing and cannot be created: \(parent) does not exist")
                }
                throw JournalError("the state directory \(path) is missing and cannot be created in \(parent): \(describe(errno: failure))")
            }
            return
        }
        guard isDirectory.boolValue else {
            throw JournalError("the state directory \(path) is not a directory")
        }
        guard access(path, W_OK | X_OK) == 0 else {
            throw JournalError("the state directory \(path) is read-only (\(describe(errno: errno))): make it writable, choose another with --state-dir, or run with --no-persist")
        }
    }

    /// What a Foundation file error means for people, from its POSIX cause when it has one; never its domain text.
    static func describe(_ error: any Error) -> String {
        let nsError = error as NSError
        if nsError.domain == NSPOSIXErrorDomain { return describe(errno: Int32(nsError.code)) }
        if let underlying = nsError.userInfo[NSUnderlyingErrorKey] as? NSError, underlying.domain == NSPOSIXErrorDomain {
            return describe(errno: Int32(underlying.code))
        }
        return "the file could not be written"
    }

    /// A short description of an errno for people: what happened, never a Foundation error domain.
    static func describe(errno code: Int32) -> String {
        switch code {
        case ENOSPC: "the disk is full"
        case EDQUOT: "the disk quota is exhausted"
        case EFBIG: "the file size limit is reached"
        case EROFS: "the file system is read-only"
        case EACCES, EPERM: "permission denied"
        case EIO: "an input/output error"
        default: String(cString: strerror(code)).lowercased()
        }
    }
}
