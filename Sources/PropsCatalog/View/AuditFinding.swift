/// One problem the accessibility audit found in a state's view.
public struct AuditFinding: Sendable, Hashable {
    /// How much a finding matters.
    public enum Severity: String, Sendable, Hashable {
        /// Fails `storybook check` (unless the component's audit level is `todo`).
        case error
        /// Reported, never fails.
        case warning
    }

    /// The rule's id: `control-name`, `image-alt`, `heading-order`, `secure-value`, `duplicate-name`.
    public var rule: String
    public var severity: Severity
    /// The element's node path, as the outline's elements and the UI locate it.
    public var node: String
    /// A sentence for people.
    public var message: String

    public init(rule: String, severity: Severity, node: String, message: String) {
        self.rule = rule
        self.severity = severity
        self.node = node
        self.message = message
    }

    /// `{"rule", "severity", "node", "message"}`.
    public var json: JSONValue {
        ["rule": .string(rule), "severity": .string(severity.rawValue), "node": .string(node), "message": .string(message)]
    }
}

/// How a component's audit findings count: `error` (the default) fails CI, `todo` is reported and
/// never fails (known problems being worked on), `off` does not audit the component.
public enum AuditLevel: String, Sendable, Hashable, CaseIterable {
    case error, todo, off
}

extension AuditLevel {
    /// Findings as this level reports them: none when `off`, every one a warning when `todo`.
    public func applied(to findings: [AuditFinding]) -> [AuditFinding] {
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
