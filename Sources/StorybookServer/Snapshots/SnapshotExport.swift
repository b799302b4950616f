import Foundation
import PropsCatalog

/// `storybook export --out DIR`: every story's files (``StorySnapshot``) plus ``SnapshotIndex``,
/// written so that a failed export never leaves a tree that looks complete.
///
/// The files go to a sibling `DIR.tmp-<pid>`, which is renamed to `DIR` once everything is
/// written; a previous export at `DIR` is moved aside first and removed after. An existing `DIR`
/// is replaced only when it is empty or has an `index.json` (it looks like an export); anything
/// else is refused before a single file is written, and checked again just before the rename.
/// No timestamps: equal catalogs give byte-identical trees.
struct SnapshotExport {
    /// What an export wrote.
    struct Summary: Sendable, Equatable {
        let stories: Int
        let files: Int
        /// A previous export moved aside that could not be removed, if any.
        var leftover: String?
    }

    let catalog: Catalog

    /// Renders every story and writes the tree at `destination`.
    func write(to destination: String) throws(SnapshotError) -> Summary {
        let target = URL(fileURLWithPath: destination).standardizedFileURL
        let path = target.path
        let parent = target.deletingLastPathComponent().path
        guard !target.lastPathComponent.isEmpty, path != "/" else { throw .rootDirectory() }
        try Self.verifyReplaceable(path)
        try FileSystem.makeDirectories(parent)

        let pid = getpid()
        let temporary = "\(path).tmp-\(pid)"
        try FileSystem.removeTree(temporary)  // a leftover of a killed run with the same pid
        try FileSystem.makeDirectory(temporary)
        do throws(SnapshotError) {
            let previous = try FileSystem.kind(path) == .directory ? path : nil
            let files = try writeFiles(into: temporary, reusing: previous)
            try Self.verifyReplaceable(path)  // it may have appeared while writing
            var summary = Summary(stories: catalog.stories.count, files: files)
            summary.leftover = try Self.replace(path, with: temporary, aside: "\(path).old-\(pid)")
            return summary
        } catch {
            try? FileSystem.removeTree(temporary)
            throw error
        }
    }

    /// Renders the stories on every core and hands each one's files to a ``SerialWriter`` as
    /// soon as it is rendered, then writes the index; answers how many files were written.
    ///
    /// A file whose bytes equal the same file in `previous` (the export being replaced) is hard
    /// linked from it rather than written: no new inode, and none freed when the previous tree
    /// is removed.
    private func writeFiles(into directory: String, reusing previous: String?) throws(SnapshotError) -> Int {
        let writer = SerialWriter()
        let rendering = { @Sendable (story: Catalog.Story) throws(SnapshotError) -> StorySnapshot in
            if let failure = writer.failure { throw failure }
            let snapshot = try StorySnapshot(story)
            let unchanged = snapshot.files.map { file in
                previous.map { (try? FileSystem.read($0 + "/" + file.name)) == file.bytes } ?? false
            }
            writer.enqueue { () throws(SnapshotError) in
                for (file, isUnchanged) in zip(snapshot.files, unchanged) {
                    let path = directory + "/" + file.name
                    if isUnchanged, let previous, FileSystem.link(previous + "/" + file.name, to: path) { continue }
                    try FileSystem.write(file.bytes, to: path, exclusive: true)
                }
            }
            return snapshot
        }
        let snapshots: [StorySnapshot]
        do throws(SnapshotError) {
            snapshots = try ParallelMap.map(catalog.stories, rendering)
        } catch {
            try? writer.finish()  // no write may land in the directory once the caller removes it
            throw error
        }
        try writer.finish()
        try FileSystem.write(SnapshotIndex.json(catalog, snapshots), to: directory + "/" + SnapshotIndex.jsonName)
        try FileSystem.write(SnapshotIndex.html(catalog), to: directory + "/" + SnapshotIndex.htmlName)
        return snapshots.count * StorySnapshot.Kind.allCases.count + 2
    }

    /// Refuses a destination that is not absent, an empty directory or a previous export.
    static func verifyReplaceable(_ path: String) throws(SnapshotError) {
        switch try FileSystem.kind(path) {
        case .missing:
            return
        case .directory:
            if try FileSystem.kind(path + "/" + SnapshotIndex.jsonName) == .file { return }
            guard try FileSystem.entries(path).isEmpty else { throw .notAnExport(path) }
        case .symbolicLink:
            throw .symbolicLink(path)
        case .file, .other:
            throw .notADirectory(path)
        }
    }

    /// Puts `temporary` in place of `path`, moving a previous tree aside and removing it after;
    /// answers the aside path when it could not be removed.
    private static func replace(_ path: String, with temporary: String, aside: String) throws(SnapshotError) -> String? {
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
            try FileSystem.removeTree(aside, parallel: true)
            return nil
        } catch {
            return aside
        }
    }
}
