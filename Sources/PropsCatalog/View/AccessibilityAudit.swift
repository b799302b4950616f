/// The accessibility audit of one state's view, over the same elements the outline prints.
///
/// Rules: `control-name` (a button, field, switch or row with a command and no accessible name),
/// `image-alt` (an image without a text alternative that is not decorative), `heading-order` (a
/// heading more than one level below the one before it), `secure-value` (a secure field announced
/// with a value), `duplicate-name` (two controls in one container with the same name and different
/// commands: a warning).
package enum AccessibilityAudit {
    /// The findings of `nodes` at the component's `level`: none when `off`, every one a warning when `todo`.
    package static func findings(_ nodes: [ViewNode], level: AuditLevel = .error) -> [AuditFinding] {
        level.applied(to: findings(AccessibilityTree.elements(nodes)))
    }

    /// The findings of already read elements, in reading order, at each rule's own severity.
    package static func findings(_ elements: [AccessibilityElement]) -> [AuditFinding] {
        var findings: [AuditFinding] = []
        var previousLevel: Int?
        var named: [String: [String: AccessibilityElement]] = [:]  // container -> name -> first control
        for element in elements {
            let described = AccessibilityOutline.line(element).trimmingLeadingSpaces
            if element.isControl && element.name.trimmingLeadingSpaces.isEmpty {
                findings.append(AuditFinding(rule: "control-name", severity: .error, node: element.node,
                                             message: "\(element.role.rawValue) has no accessible name: give it a label or .accessibilityLabel(_:)"))
            }
            if element.role == .image && element.isMissingAlt {
                findings.append(AuditFinding(rule: "image-alt", severity: .error, node: element.node,
                                             message: "image has no text alternative: give it alt text, or use Image(decorative:) if it adds nothing"))
            }
            if element.role == .heading, let level = element.level {
                if let previousLevel, level > previousLevel + 1 {
                    findings.append(AuditFinding(rule: "heading-order", severity: .error, node: element.node,
                                                 message: "\(described) follows a level \(previousLevel) heading: heading levels skip \(previousLevel + 1)"))
                }
                previousLevel = level
            }
            if element.isSecure && element.value != nil {
                findings.append(AuditFinding(rule: "secure-value", severity: .error, node: element.node,
                                             message: "secure field \(TextProjection.quote(element.name)) is announced with its value"))
            }
            if element.isControl, !element.name.isEmpty, let command = element.command {
                if let first = named[element.container]?[element.name] {
                    if let firstCommand = first.command, firstCommand != command {
                        findings.append(AuditFinding(rule: "duplicate-name", severity: .warning, node: element.node,
                                                     message: "\(described) has the same name as \(first.node) but sends \(command.name), not \(firstCommand.name)"))
                    }
                } else {
                    named[element.container, default: [:]][element.name] = element
                }
            }
        }
        return findings
    }

    /// `{"story", "level", "findings": [...]}`: the audit route's answer.
    package static func json(story: String, level: AuditLevel, findings: [AuditFinding]) -> JSONValue {
        ["story": .string(story), "level": .string(level.rawValue), "findings": .array(findings.map(\.json))]
    }
}

extension String {
    /// The string without leading spaces (outline indentation) and, for names, made of spaces alone.
    fileprivate var trimmingLeadingSpaces: String {
        String(drop { $0 == " " })
    }
}
