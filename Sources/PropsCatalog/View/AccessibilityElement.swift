/// One element a screen reader announces: what the accessibility outline prints on one line and
/// what the audit inspects. Built from the view tree by ``AccessibilityTree``.
package struct AccessibilityElement: Sendable, Hashable {
    /// The role announced, as the outline writes it.
    package enum Role: String, Sendable, Hashable {
        case heading, text, button, textbox, `switch`, image, progress, list
    }

    package var role: Role
    /// The accessible name; empty when the element has none.
    package var name: String
    /// The announced value (a field's text, a progress percentage), if any.
    package var value: String?
    /// States announced after the value: `on`, `off`, `selected`, `secure`, `indeterminate`, `N items`.
    package var states: [String] = []
    /// The heading level, for headings.
    package var level: Int?
    package var hint: String?
    /// Nesting for the outline: list rows sit one level under their list.
    package var depth: Int
    /// Where the node is in the view tree: child indices from the root, `/0/2` (see ``ViewPath``).
    package var node: String
    /// The command the element sends, for controls.
    package var command: Command?
    /// The node of the nearest grouping container (section, list, list item, component; `/` for the root).
    package var container: String
    /// Whether it is a secure field.
    package var isSecure = false
    /// A non-decorative image with no text alternative.
    package var isMissingAlt = false

    /// Whether people can act on it: buttons, fields, switches and list rows with a command.
    package var isControl: Bool { role == .button || role == .textbox || role == .switch }
}
