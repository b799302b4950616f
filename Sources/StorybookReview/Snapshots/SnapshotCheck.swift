package import PropsCatalog

/// `storybook check --snapshots DIR`: compares every story's files (``StorySnapshot``) with the
/// goldens in DIR, laid out as `storybook export` writes them, without a running server.
///
/// `record` writes the goldens of new and changed stories, each file atomically (temporary file,
/// then rename); `prune` deletes the goldens of stories that no longer exist. When either leaves
/// the directory matching the catalog, index.json and index.html are refreshed too, so that the
/// directory is byte-identical to an export. Files that are not a story's (a README, dot files)
/// are left alone.
package struct SnapshotCheck {
    package struct Options: Sendable {
        package var record = false
        package var prune = false

        package init(record: Bool = false, prune: Bool = false) {
            self.record = record
            self.prune = prune
        }
    }

    package let catalog: Catalog
    package var options = Options()

    package init(catalog: Catalog, options: Options = Options()) {
        self.catalog = catalog
        self.options = options
    }

    package func run(directory: String) throws(SnapshotError) -> SnapshotReport {
        if !FileSystem.isDirectory(directory) {
            guard try FileSystem.kind(directory) == .missing else { throw .notADirectory(directory) }
            guard options.record else { throw .missingDirectory(directory) }
            try FileSystem.makeDirectories(directory)
        }
        let record = options.record
        let compared = try ParallelMap.map(catalog.stories) { story throws(SnapshotError) in
            let snapshot = try StorySnapshot(story, environments: catalog.environments)
            var goldens: [[UInt8]?] = []
            for file in snapshot.files { goldens.append(try FileSystem.read(directory + "/" + file.name)) }
            var comparison = StoryComparison(snapshot, goldens: goldens)
            if record, comparison.status != .unchanged {
                for (file, golden) in zip(snapshot.files, goldens) where golden != file.bytes {
                    try FileSystem.writeAtomically(file.bytes, to: directory + "/" + file.name)
                }
                comparison.isResolved = true
            }
            return (snapshot: snapshot, comparison: comparison)
        }
        var stories = compared.map(\.comparison)
        stories += try removedStories(in: directory, expected: Set(compared.flatMap { $0.snapshot.files.map(\.name) }))
        var report = SnapshotReport(directory: directory, stories: stories)
        report.audits = compared.compactMap { item in
            guard let story = catalog.story(id: item.snapshot.id) else { return nil }
            let audit = StoryAudit(item.snapshot, level: story.component.auditLevel)
            return audit.findings.isEmpty ? nil : audit
        }
        if (options.record || options.prune) && report.goldensMatch {
            report.rewroteIndex = try refreshIndex(in: directory, compared.map(\.snapshot))
        }
        return report
    }

    /// The goldens of stories the catalog does not have, and of environments in which a story now
    /// renders as in the default one (`<id>@<environment>`), deleted when pruning.
    private func removedStories(in directory: String, expected: Set<String>) throws(SnapshotError) -> [StoryComparison] {
        var orphans: [String: [String]] = [:]
        for name in try FileSystem.entries(directory) {
            guard let (id, environment) = StorySnapshot.owner(ofFileNamed: name), !expected.contains(name) else { continue }
            if catalog.story(id: id) == nil {
                orphans[id, default: []].append(name)
            } else if !environment.isEmpty {
                orphans["\(id)@\(environment)", default: []].append(name)
            }
        }
        var removed: [StoryComparison] = []
        for (id, files) in orphans.sorted(by: { $0.key < $1.key }) {
            var comparison = StoryComparison(removed: id, files: files)
            if options.prune {
                for file in files { try FileSystem.removeTree(directory + "/" + file) }
                comparison.isResolved = true
            }
            removed.append(comparison)
        }
        return removed
    }

    /// Rewrites index.json and index.html where they differ from the catalog's; answers whether any was.
    private func refreshIndex(in directory: String, _ snapshots: [StorySnapshot]) throws(SnapshotError) -> Bool {
        var rewrote = false
        for (name, bytes) in [(SnapshotIndex.jsonName, SnapshotIndex.json(catalog, snapshots)), (SnapshotIndex.htmlName, SnapshotIndex.html(catalog))] {
            let path = directory + "/" + name
            if try FileSystem.read(path) != bytes {
                try FileSystem.writeAtomically(bytes, to: path)
                rewrote = true
            }
        }
        return rewrote
    }
}
