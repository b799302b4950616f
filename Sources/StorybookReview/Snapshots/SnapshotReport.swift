/// The outcome of `storybook check`: every story's comparison, in catalog order, then the goldens
/// of removed stories in id order; what `--record` and `--prune` did; the console text and the
/// summary line.
package struct SnapshotReport: Sendable, Equatable {
    /// The snapshot directory, as given.
    package let directory: String
    package let stories: [StoryComparison]
    /// Whether index.json and index.html were rewritten (after recording or pruning, when the
    /// directory then matches the catalog).
    package var rewroteIndex = false

    /// How many stories have `status`.
    package func count(_ status: StoryComparison.Status) -> Int {
        stories.reduce(0) { $1.status == status ? $0 + 1 : $0 }
    }

    /// Whether the check passes: nothing changed, or every change was recorded or pruned.
    package var passed: Bool { !stories.contains(where: \.isFailure) }

    /// `N unchanged, N changed, N new, N removed`.
    package var summary: String {
        "\(count(.unchanged)) unchanged, \(count(.changed)) changed, \(count(.new)) new, \(count(.removed)) removed"
    }

    /// What the console shows: for each story that is not unchanged, its headline and, when it
    /// changed, its unified diff; then what was written, then the summary line last.
    package var text: String {
        var out = ""
        for story in stories where story.status != .unchanged {
            out += story.headline + "\n" + story.diff
        }
        let recorded = stories.filter { $0.isResolved && ($0.status == .changed || $0.status == .new) }.count
        let pruned = stories.filter { $0.isResolved && $0.status == .removed }.count
        if recorded > 0 { out += "recorded \(recorded) \(recorded == 1 ? "story" : "stories") in \(directory)\n" }
        if pruned > 0 { out += "pruned the goldens of \(pruned) removed \(pruned == 1 ? "story" : "stories") from \(directory)\n" }
        return out + summary + "\n"
    }
}
