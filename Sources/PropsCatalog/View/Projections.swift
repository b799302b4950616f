/// The projections of one headless view.
public struct Projections: Sendable, Equatable {
    /// The text outline, the artifact CI diffs.
    public let text: String
    /// The HTML fragment.
    public let html: String
    /// The accessibility outline: what a screen reader announces.
    public let accessibility: String
    /// The audit's findings at each rule's own severity (a component's ``AuditLevel`` applies on top).
    public let findings: [AuditFinding]

    public init(_ view: [ViewNode]) {
        text = TextProjection.render(view)
        html = HTMLProjection.fragment(view)
        let elements = AccessibilityTree.elements(view)
        accessibility = AccessibilityOutline.render(elements)
        findings = AccessibilityAudit.findings(elements)
    }
}
