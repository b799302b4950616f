/// Both projections of one headless view.
public struct Projections: Sendable, Equatable {
    /// The text outline, the artifact CI diffs.
    public let text: String
    /// The HTML fragment.
    public let html: String

    public init(_ view: [ViewNode]) {
        text = TextProjection.render(view)
        html = HTMLProjection.fragment(view)
    }
}
