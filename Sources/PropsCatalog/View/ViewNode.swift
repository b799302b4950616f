/// One node of the headless view: a semantic element, not HTML.
///
/// A component renders its Props into a list of nodes; the text and HTML projections are two
/// readings of the same tree. Buttons, fields and toggles carry command values, never closures.
public indirect enum ViewNode: Sendable, Hashable {
    /// Children laid out vertically or horizontally.
    case stack(StackAxis, [ViewNode])
    /// A run of text.
    case text(String)
    /// A heading of level 1 (most important) to 6.
    case heading(String, level: Int)
    /// A button with its label and the command it sends.
    case button(label: String, command: Command?)
    /// A text field: label, current value, whether it hides its value, and the command an edit sends.
    case textField(label: String, value: String, isSecure: Bool, command: Command?)
    /// An on/off switch with the command a flip sends.
    case toggle(label: String, isOn: Bool, command: Command?)
    /// A list of items.
    case list([ViewNode])
    /// One item of a list, possibly the selected one, possibly sending a command when chosen.
    case listItem(isSelected: Bool, command: Command?, [ViewNode])
    /// An image by URL with its text alternative.
    case image(url: String, alt: String)
    /// Progress: a fraction from 0 to 1, or nil for an indeterminate spinner.
    case progress(label: String, fraction: Double?)
    /// A short status label with a tone.
    case badge(String, tone: BadgeTone)
    /// A titled group of nodes.
    case section(title: String, [ViewNode])
    /// A separator line.
    case divider
    /// A child component's view embedded in its parent, under the child's title.
    case component(title: String, [ViewNode])
    /// A button showing only an icon (a symbol name such as `trash`); it needs an accessibility label.
    case iconButton(icon: String, command: Command?)
    /// A node with what assistive technology announces instead of, or besides, what it shows.
    case accessible(AccessibilityInfo, ViewNode)
}

/// The direction a stack lays out its children.
public enum StackAxis: String, Sendable, Hashable {
    case vertical
    case horizontal
}

/// The meaning a badge's colour conveys.
public enum BadgeTone: String, Sendable, Hashable, Codable, CaseIterable {
    case neutral, info, success, warning, danger
}
