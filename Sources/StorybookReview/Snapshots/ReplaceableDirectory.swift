import Foundation

/// A directory the CLI writes whole (`export --out`, `export --site`) so that a failed run never leaves
/// a tree that looks complete: the new tree is written into a sibling `DIR.tmp-<pid>` and renamed to
/// `DIR` once complete; a previous tree at `DIR` is moved aside first and removed after.
///
/// An existing `DIR` is replaced only when it is empty or holds `marker` (a previous tree of the same
/// kind); anything else is refused before a single file is written, and checked again just before the
/// rename.
package struct ReplaceableDirectory {
    /// The standardized absolute path of `DIR`.
    package let path: String
    /// A file, relative to `DIR`, that only a previous tree of this kind has.
    package let marker: String
    /// The error for a non-empty directory without `marker`.
    package let notOurs: (String) -> SnapshotError
    /// Removes a previous tree on every core (many small files).
    package var removesInParallel = false

    /// Refuses `/` and an empty last component.
    package init(destination: String, marker: String, notOurs: @escaping (String) -> SnapshotError) throws(SnapshotError) {
        let target = URL(fileURLWithPath: destination).standardizedFileURL
        guard !target.lastPathComponent.isEmpty, target.path != "/" else { throw .rootDirectory() }
        self.path = target.path
        self.marker = marker
        self.notOurs = notOurs
    }

    /// Refuses a destination that is not absent, an empty directory or a previous tree of this kind.
    package func verifyReplaceable() throws(SnapshotError) {
        switch try FileSystem.kind(path) {
        case .missing:
            return
        case .directory:
            if try FileSystem.kind(path + "/" + marker) == .file { return }
            guard try FileSystem.entries(path).isEmpty else { throw notOurs(path) }
        case .symbolicLink:
            throw .symbolicLink(path)
        case .file, .other:
            throw .notADirectory(path)
        }
    }

    /// Writes a new tree with `build` (given the temporary directory) and puts it in place of `DIR`.
    /// Answers what `build` answered and a previous tree moved aside that could not be removed, if any.
    package func write<Result>(_ build: (String) throws(SnapshotError) -> Result) throws(SnapshotError) -> (Result, leftover: String?) {
        try verifyReplaceable()
        try FileSystem.makeDirectories(URL(fileURLWithPath: path).deletingLastPathComponent().path)
        let pid = getpid()
        let temporary = "\(path).tmp-\(pid)"
        try FileSystem.removeTree(temporary)  // a leftover of a killed run with the same pid
        try FileSystem.makeDirectory(temporary)
        do throws(SnapshotError) {
            let result = try build(temporary)
            try verifyReplaceable()  // it may have appeared while writing
            return (result, try replace(with: temporary, aside: "\(path).old-\(pid)"))
        } catch {
            try? FileSystem.removeTree(temporary)
            throw error
        }
    }

    /// Puts `temporary` in place of `DIR`, moving a previous tree aside and removing it after;
    /// answers the aside path when it could not be removed.
    private func replace(with temporary: String, aside: String) throws(SnapshotError) -> String? {
        guard try FileSystem.kind(path) != .missing else {
            try FileSystem.rename(temporary, to: path)
            return nil
        }
        try FileSystem.removeTree(aside)
        try FileSystem.rename(path, to: aside)
        do throws(SnapshotError) {
            try FileSystem.rename(temporary, to: path)
        } catch {
            try? FileSystem.rename(aside, to: path)
            throw error
        }
        do {
            try FileSystem.removeTree(aside, parallel: removesInParallel)
            return nil
        } catch {
            return aside
        }
    }
}
