/// The projections of one headless view.
///
/// The text and HTML are rendered when the projections are made (every live version sends them);
/// the accessibility outline and the audit's findings are worked out from the view when asked for,
/// so an edit does not pay for them (about 36k instructions a version for the profile card).
package struct Projections: Sendable, Equatable {
    /// The view the projections show.
    package let view: [ViewNode]
    /// The text outline, the artifact CI diffs.
    package let text: String
    /// The HTML fragment.
    package let html: String

    package init(_ view: [ViewNode]) {
        self.view = view
        text = TextProjection.render(view)
        html = HTMLProjection.fragment(view)
    }

    /// The accessibility outline: what a screen reader announces.
    package var accessibility: String {
        AccessibilityOutline.render(AccessibilityTree.elements(view))
    }

    /// The audit's findings at each rule's own severity (a component's ``AuditLevel`` applies on top).
    package var findings: [AuditFinding] {
        AccessibilityAudit.findings(AccessibilityTree.elements(view))
    }
}
