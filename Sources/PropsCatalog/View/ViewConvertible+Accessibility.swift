// SwiftUI-like accessibility modifiers on every view value.

extension ViewConvertible {
    /// The name a screen reader announces instead of the visible label (an icon button's purpose).
    public func accessibilityLabel(_ label: String) -> AccessibleView {
        AccessibleView(self, AccessibilityInfo(label: label))
    }

    /// What using the element does, read after its name: "Opens the movie's details".
    public func accessibilityHint(_ hint: String) -> AccessibleView {
        AccessibleView(self, AccessibilityInfo(hint: hint))
    }

    /// The value announced instead of the visible one.
    public func accessibilityValue(_ value: String) -> AccessibleView {
        AccessibleView(self, AccessibilityInfo(value: value))
    }

    /// Leaves the view out of what assistive technology announces (decorative or repeated content).
    public func accessibilityHidden(_ isHidden: Bool = true) -> AccessibleView {
        AccessibleView(self, AccessibilityInfo(isHidden: isHidden))
    }

    /// Announces text as a heading of `level` (1...6).
    public func accessibilityHeading(_ level: Int) -> AccessibleView {
        AccessibleView(self, AccessibilityInfo(headingLevel: level))
    }
}

/// A view with accessibility settings; modifiers chain, the outermost winning where they overlap.
public struct AccessibleView: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]

    init(_ content: some ViewConvertible, _ info: AccessibilityInfo) {
        viewNodes = content.viewNodes.map { node in
            if case .accessible(let inner, let wrapped) = node { return .accessible(inner.merging(info), wrapped) }
            return .accessible(info, node)
        }
    }
}
