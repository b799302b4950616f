/// How one story compares with its goldens in a snapshot directory.
package struct StoryComparison: Sendable, Equatable {
    package enum Status: String, Sendable {
        /// Every file equals its golden.
        case unchanged
        /// At least one file differs from its golden or has none.
        case changed
        /// The story has no golden at all.
        case new
        /// Goldens of a story the catalog no longer has.
        case removed
    }

    package let id: String
    /// The component id, for grouping; for a removed story, what precedes `--` in its id.
    package let componentID: String
    /// "Title / Variant"; nil for a removed story.
    package let title: String?
    package let status: Status
    /// For a changed story, the names of its files that differ; for a new or removed one, every file.
    package let files: [String]
    /// The unified diffs of the changed files, golden (`a/`) to current (`b/`); empty otherwise.
    package let diff: String
    /// Whether `--record` or `--prune` brought the goldens up to date.
    package var isResolved = false

    /// Whether the story needs attention: a difference that was not recorded or pruned.
    package var isFailure: Bool { status != .unchanged && !isResolved }

    /// "changed: <id> (<title>)" and what was done about it: the line before the diff.
    package var headline: String {
        let name = title.map { "\(id) (\($0))" } ?? id
        switch status {
        case .unchanged: return "unchanged: \(name)"
        case .changed: return "changed: \(name)" + (isResolved ? ", recorded" : "")
        case .new: return "new: \(name)" + (isResolved ? ", recorded" : ": no golden (--record writes it)")
        case .removed:
            let reason = id.contains("@") ? "renders as in the default environment now" : "no such story"
            return "removed: \(name)" + (isResolved ? ", pruned" : ": \(reason) (--prune deletes its goldens)")
        }
    }

    package init(id: String, componentID: String, title: String?, status: Status, files: [String], diff: String) {
        self.id = id
        self.componentID = componentID
        self.title = title
        self.status = status
        self.files = files
        self.diff = diff
    }

    /// Compares a story's rendered files with `goldens` (nil for a missing file), in the same order.
    package init(_ snapshot: StorySnapshot, goldens: [[UInt8]?]) {
        id = snapshot.id
        componentID = snapshot.componentID
        title = snapshot.title
        let pairs = zip(snapshot.files, goldens)
        if goldens.allSatisfy({ $0 == nil }) {
            status = .new
            files = snapshot.files.map(\.name)
            diff = ""
        } else {
            let differing = pairs.filter { file, golden in golden != file.bytes }
            status = differing.isEmpty ? .unchanged : .changed
            files = differing.map(\.0.name)
            diff = differing.map { file, golden in UnifiedDiff.render(file: file.name, old: golden, new: file.bytes) }.joined()
        }
    }

    /// The goldens of a story that no longer exists.
    package init(removed id: String, files: [String]) {
        self.id = id
        componentID = id.range(of: "--").map { String(id[..<$0.lowerBound]) } ?? id  // `<id>@<environment>` too
        title = nil
        status = .removed
        self.files = files
        diff = ""
    }
}
