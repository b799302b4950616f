/// The projections of one headless view.
package struct Projections: Sendable, Equatable {
    /// The text outline, the artifact CI diffs.
    package let text: String
    /// The HTML fragment.
    package let html: String
    /// The accessibility outline: what a screen reader announces.
    package let accessibility: String
    /// The audit's findings at each rule's own severity (a component's ``AuditLevel`` applies on top).
    package let findings: [AuditFinding]

    package init(_ view: [ViewNode]) {
        text = TextProjection.render(view)
        html = HTMLProjection.fragment(view)
        let elements = AccessibilityTree.elements(view)
        accessibility = AccessibilityOutline.render(elements)
        findings = AccessibilityAudit.findings(elements)
    }
}
