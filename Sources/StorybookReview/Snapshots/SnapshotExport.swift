import Foundation
package import PropsCatalog

/// `storybook export --out DIR`: every story's files (``StorySnapshot``) plus ``SnapshotIndex``,
/// written so that a failed export never leaves a tree that looks complete.
///
/// The files go to a sibling `DIR.tmp-<pid>`, which is renamed to `DIR` once everything is
/// written; a previous export at `DIR` is moved aside first and removed after. An existing `DIR`
/// is replaced only when it is empty or has an `index.json` (it looks like an export); anything
/// else is refused before a single file is written, and checked again just before the rename.
/// No timestamps: equal catalogs give byte-identical trees.
package struct SnapshotExport {
    /// What an export wrote.
    package struct Summary: Sendable, Equatable {
        package let stories: Int
        package let files: Int
        /// A previous export moved aside that could not be removed, if any.
        package var leftover: String?
    }

    package let catalog: Catalog

    /// Renders every story and writes the tree at `destination`.
    package func write(to destination: String) throws(SnapshotError) -> Summary {
        var directory = try ReplaceableDirectory(destination: destination, marker: SnapshotIndex.jsonName, notOurs: SnapshotError.notAnExport)
        directory.removesInParallel = true
        let previous = try FileSystem.kind(directory.path) == .directory ? directory.path : nil
        let (files, leftover) = try directory.write { temporary throws(SnapshotError) in
            try writeFiles(into: temporary, reusing: previous)
        }
        var summary = Summary(stories: catalog.stories.count, files: files)
        summary.leftover = leftover
        return summary
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
            let snapshot = try StorySnapshot(story, environments: catalog.environments)
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
        return snapshots.reduce(2) { $0 + $1.files.count }
    }
}
