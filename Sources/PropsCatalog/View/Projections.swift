import Synchronization

/// The projections of one headless view.
///
/// The text and HTML are rendered when the projections are made (every live version sends them);
/// the accessibility outline and the audit's findings are worked out from the view when asked for,
/// so an edit does not pay for them (about 36k instructions a version for the profile card).
/// Made from the previous version's projections, they copy the output of every node that did not
/// change (see `RenderMemo`), so an edit of one row of a long list renders that row, not the list.
package struct Projections: Sendable, Equatable {
    /// The view the projections show.
    package let view: [ViewNode]
    /// The text outline, the artifact CI diffs.
    package let text: String
    /// The HTML fragment.
    package let html: String

    /// Where each node's output lies in `text`, for the next projections to copy from.
    let textMemo: RenderMemo
    /// Where each node's output lies in `html`, for the next projections to copy from.
    let htmlMemo: RenderMemo
    /// Which projections these are, and which ones they copied from (what their memos' shared ends are with).
    private let serial: UInt64
    private let copiedFrom: UInt64?

    private static let serials = Atomic<UInt64>(0)

    /// The projections of `view`, copying from `previous` the output of every node equal to the
    /// node at the same position in its view: the same text and HTML as rendering all of `view`.
    package init(_ view: [ViewNode], reusing previous: Projections? = nil) {
        self.view = view
        serial = Self.serials.add(1, ordering: .relaxed).newValue
        copiedFrom = previous?.serial
        (text, textMemo) = TextProjection.render(view, reusing: previous.map { ($0.view, $0.text, $0.textMemo) })
        (html, htmlMemo) = HTMLProjection.fragment(view, reusing: previous.map { ($0.view, $0.html, $0.htmlMemo) })
    }

    /// The splices that turn `previous`'s text and HTML into these (a state delta's), found from past
    /// the ends the render knows it kept when these projections were made from those.
    package func splices(from previous: Projections) -> (text: TextSplice, html: TextSplice) {
        let shared = sharedEnds(with: previous)
        return (TextSplice(from: previous.text, to: text, sharing: shared.text), TextSplice(from: previous.html, to: html, sharing: shared.html))
    }

    /// The bytes the text and the HTML share with `previous`'s at their start and end, when these
    /// projections were made from those (`init(_:reusing:)`); nothing known otherwise.
    func sharedEnds(with previous: Projections) -> (text: TextSplice.SharedEnds, html: TextSplice.SharedEnds) {
        guard copiedFrom == previous.serial else { return (.none, .none) }
        return (textMemo.sharedEnds, htmlMemo.sharedEnds)
    }

    /// Projections are equal when they show the same view the same way; how they were rendered does not matter.
    package static func == (lhs: Projections, rhs: Projections) -> Bool {
        lhs.view == rhs.view && lhs.text == rhs.text && lhs.html == rhs.html
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
