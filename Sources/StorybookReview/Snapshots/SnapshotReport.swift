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
    /// The stories with accessibility findings, in catalog order.
    package var audits: [StoryAudit] = []

    /// How many stories have `status`.
    package func count(_ status: StoryComparison.Status) -> Int {
        stories.reduce(0) { $1.status == status ? $0 + 1 : $0 }
    }

    /// Whether every golden matches: nothing changed, or every change was recorded or pruned.
    package var goldensMatch: Bool { !stories.contains(where: \.isFailure) }

    /// Whether the check passes: the goldens match and no story has an error-level accessibility finding.
    package var passed: Bool { goldensMatch && !audits.contains(where: \.isFailure) }

    /// `N unchanged, N changed, N new, N removed`, then the accessibility counts when there are findings.
    package var summary: String {
        var line = "\(count(.unchanged)) unchanged, \(count(.changed)) changed, \(count(.new)) new, \(count(.removed)) removed"
        let errors = audits.reduce(0) { $0 + $1.errors.count }
        let others = audits.reduce(0) { $0 + $1.findings.count } - errors
        if errors > 0 || others > 0 { line += "; accessibility: \(errors) \(errors == 1 ? "error" : "errors"), \(others) todo or warning" }
        return line
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
        for audit in audits {
            for line in audit.lines { out += line + "\n" }
        }
        return out + summary + "\n"
    }
}
