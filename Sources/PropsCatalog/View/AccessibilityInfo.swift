/// What assistive technology announces for a node where it differs from what the node shows:
/// set with `.accessibilityLabel(_:)`, `.accessibilityHint(_:)`, `.accessibilityValue(_:)`,
/// `.accessibilityHidden(_:)` and `.accessibilityHeading(_:)`, or by `Image(decorative:)`.
public struct AccessibilityInfo: Sendable, Hashable {
    /// The accessible name, replacing the visible label or text.
    public var label: String?
    /// What using the element does, read after its name.
    public var hint: String?
    /// The current value, replacing the visible one.
    public var value: String?
    /// Whether the node and everything in it is left out of the outline (decorative or redundant).
    public var isHidden = false
    /// A heading level (1...6) for text that acts as a heading.
    public var headingLevel: Int?

    /// Accessibility overrides; what is nil keeps what the element would announce.
    public init(label: String? = nil, hint: String? = nil, value: String? = nil, isHidden: Bool = false, headingLevel: Int? = nil) {
        self.label = label
        self.hint = hint
        self.value = value
        self.isHidden = isHidden
        self.headingLevel = headingLevel.map { min(max($0, 1), 6) }
    }

    /// These settings with `other`'s set ones on top (an outer modifier wins).
    func merging(_ other: AccessibilityInfo) -> AccessibilityInfo {
        AccessibilityInfo(label: other.label ?? label, hint: other.hint ?? hint, value: other.value ?? value,
                          isHidden: isHidden || other.isHidden, headingLevel: other.headingLevel ?? headingLevel)
    }
}
