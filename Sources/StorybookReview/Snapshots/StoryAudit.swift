package import PropsCatalog

/// One story's accessibility audit in `storybook check`: its findings in the default environment
/// and in every environment of the matrix that renders differently, at the component's level.
package struct StoryAudit: Sendable, Equatable {
    package let id: String
    package let componentID: String
    package let level: AuditLevel
    package let findings: [StorySnapshot.Finding]

    package init(_ snapshot: StorySnapshot, level: AuditLevel) {
        id = snapshot.id
        componentID = snapshot.componentID
        self.level = level
        findings = snapshot.findings
    }

    /// Error-level findings fail the check.
    package var errors: [StorySnapshot.Finding] { findings.filter { $0.finding.severity == .error } }

    package var isFailure: Bool { !errors.isEmpty }

    /// One readable line per finding: `a11y error: <id>[@env] <node> <rule>: <message>`; `todo` for
    /// warnings of a component whose level is `todo`.
    package var lines: [String] {
        findings.map { item in
            let kind = item.finding.severity == .error ? "error" : (level == .todo ? "todo" : "warning")
            let story = item.environment.isEmpty ? id : "\(id)@\(item.environment)"
            return "a11y \(kind): \(story) \(item.finding.node) \(item.finding.rule): \(item.finding.message)"
        }
    }
}
