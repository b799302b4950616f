import Foundation

/// The few file operations export and check need, as thin POSIX calls: fast enough for tens of
/// thousands of small files, and every failure a ``SnapshotError`` naming the path and the reason.
package enum FileSystem {
    /// What a path names, without following a symbolic link.
    package enum Kind: Equatable {
        case missing, directory, file, symbolicLink, other
    }

    /// The system's reason for an `errno` value, e.g. "Permission denied".
    package static func reason(_ code: Int32) -> String {
        String(cString: strerror(code))
    }

    /// What `path` is; a path that cannot be examined is reported as an error.
    package static func kind(_ path: String) throws(SnapshotError) -> Kind {
        var status = stat()
        guard lstat(path, &status) == 0 else {
            if errno == ENOENT || errno == ENOTDIR { return .missing }
            throw .io("examine", path, errno: errno)
        }
        switch status.st_mode & S_IFMT {
        case S_IFDIR: return .directory
        case S_IFREG: return .file
        case S_IFLNK: return .symbolicLink
        default: return .other
        }
    }

    /// Whether `path` is a directory or a symbolic link to one.
    package static func isDirectory(_ path: String) -> Bool {
        var status = stat()
        return stat(path, &status) == 0 && status.st_mode & S_IFMT == S_IFDIR
    }

    /// The contents of `path`, or nil when it does not exist.
    package static func read(_ path: String) throws(SnapshotError) -> [UInt8]? {
        let descriptor = open(path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else {
            if errno == ENOENT { return nil }
            throw .io("read", path, errno: errno)
        }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0 else { throw .io("read", path, errno: errno) }
        guard status.st_mode & S_IFMT == S_IFREG else { throw .io("read", path, errno: EISDIR) }
        // Sized from fstat with a spare byte, so the read that meets the end needs no growth;
        // grown if the file grows meanwhile.
        var bytes = [UInt8](repeating: 0, count: Int(status.st_size) + 1)
        var filled = 0
        while true {
            if filled == bytes.count { bytes += repeatElement(0, count: max(4096, bytes.count)) }
            let count = bytes.withUnsafeMutableBytes { Foundation.read(descriptor, $0.baseAddress! + filled, $0.count - filled) }
            if count == 0 {
                bytes.removeLast(bytes.count - filled)
                return bytes
            }
            if count < 0 {
                if errno == EINTR { continue }
                throw .io("read", path, errno: errno)
            }
            filled += count
        }
    }

    /// Creates or truncates `path` and writes `bytes` to it; with `exclusive`, `path` must not exist.
    package static func write(_ bytes: [UInt8], to path: String, exclusive: Bool = false) throws(SnapshotError) {
        let descriptor = open(path, O_WRONLY | O_CREAT | O_CLOEXEC | (exclusive ? O_EXCL : O_TRUNC), 0o644)
        guard descriptor >= 0 else { throw .io("write", path, errno: errno) }
        var written = 0
        while written < bytes.count {
            let count = bytes.withUnsafeBytes { Foundation.write(descriptor, $0.baseAddress! + written, $0.count - written) }
            if count < 0 {
                if errno == EINTR { continue }
                let code = errno
                close(descriptor)
                throw .io("write", path, errno: code)
            }
            written += count
        }
        guard close(descriptor) == 0 else { throw .io("write", path, errno: errno) }
    }

    /// Writes `bytes` to a hidden temporary file beside `path`, then renames it over `path`:
    /// readers see the old file or the new one, never a part of it.
    package static func writeAtomically(_ bytes: [UInt8], to path: String) throws(SnapshotError) {
        let url = URL(fileURLWithPath: path)
        let temporary = url.deletingLastPathComponent().appendingPathComponent(".\(url.lastPathComponent).tmp-\(getpid())").path
        do throws(SnapshotError) {
            try write(bytes, to: temporary)
            try rename(temporary, to: path)
        } catch {
            unlink(temporary)
            throw error
        }
    }

    /// Makes `destination` a hard link to the file `source`; answers whether it could.
    package static func link(_ source: String, to destination: String) -> Bool {
        Foundation.link(source, destination) == 0
    }

    /// Renames `source` to `destination` (atomic within one file system).
    package static func rename(_ source: String, to destination: String) throws(SnapshotError) {
        guard Foundation.rename(source, destination) == 0 else { throw .io("rename \(source) to", destination, errno: errno) }
    }

    /// Creates the directory `path`; its parent must exist.
    package static func makeDirectory(_ path: String) throws(SnapshotError) {
        guard mkdir(path, 0o755) == 0 else { throw .io("create directory", path, errno: errno) }
    }

    /// Creates `path` and every missing parent, like `mkdir -p`.
    package static func makeDirectories(_ path: String) throws(SnapshotError) {
        if try kind(path) == .directory { return }
        let parent = URL(fileURLWithPath: path).deletingLastPathComponent().path
        if parent != path { try makeDirectories(parent) }
        guard mkdir(path, 0o755) == 0 || errno == EEXIST else { throw .io("create directory", path, errno: errno) }
    }

    /// The names in a directory, `.` and `..` excluded, sorted.
    package static func entries(_ path: String) throws(SnapshotError) -> [String] {
        guard let directory = opendir(path) else { throw .io("list", path, errno: errno) }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { raw in
                String(cString: raw.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names.sorted()
    }

    /// Removes `path` and everything below it; a missing path is not an error. Symbolic links
    /// are removed, never followed. The entries of `path` itself are removed on every core.
    package static func removeTree(_ path: String, parallel: Bool = false) throws(SnapshotError) {
        switch try kind(path) {
        case .missing:
            return
        case .directory:
            let names = try entries(path)
            if parallel {
                _ = try ParallelMap.map(names, chunkSize: 256) { name throws(SnapshotError) in try removeTree(path + "/" + name) }
            } else {
                for name in names { try removeTree(path + "/" + name) }
            }
            guard rmdir(path) == 0 else { throw .io("remove", path, errno: errno) }
        default:
            guard unlink(path) == 0 || errno == ENOENT else { throw .io("remove", path, errno: errno) }
        }
    }
}
