/// One problem the accessibility audit found in a state's view.
package struct AuditFinding: Sendable, Hashable {
    /// How much a finding matters.
    package enum Severity: String, Sendable, Hashable {
        /// Fails `storybook check` (unless the component's audit level is `todo`).
        case error
        /// Reported, never fails.
        case warning
    }

    /// The rule's id: `control-name`, `image-alt`, `heading-order`, `secure-value`, `duplicate-name`.
    package var rule: String
    package var severity: Severity
    /// The element's node path, as the outline's elements and the UI locate it.
    package var node: String
    /// A sentence for people.
    package var message: String

    package init(rule: String, severity: Severity, node: String, message: String) {
        self.rule = rule
        self.severity = severity
        self.node = node
        self.message = message
    }

    /// `{"rule", "severity", "node", "message"}`.
    package var json: JSONValue {
        ["rule": .string(rule), "severity": .string(severity.rawValue), "node": .string(node), "message": .string(message)]
    }
}


extension AuditLevel {
    /// Findings as this level reports them: none when `off`, every one a warning when `todo`.
    package func applied(to findings: [AuditFinding]) -> [AuditFinding] {
        switch self {
        case .error: return findings
        case .off: return []
        case .todo:
            return findings.map { finding in
                var todo = finding
                todo.severity = .warning
                return todo
            }
        }
    }
}
