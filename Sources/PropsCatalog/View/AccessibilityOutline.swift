/// The accessibility outline: what a screen reader announces, in reading order, one element per
/// line: role, quoted accessible name, value and state.
///
/// ```
/// heading level 1 "Sign in"
/// textbox "Username" value "ada"
/// textbox "Password" secure
/// button "Log in"
/// ```
///
/// An element without a name shows `(unnamed)`; list rows are indented under their list. Hidden
/// and decorative nodes are left out. Deterministic bytes, quoted like the text projection.
public enum AccessibilityOutline {
    /// The outline of `nodes`, ending with a newline (empty when nothing is announced).
    public static func render(_ nodes: [ViewNode]) -> String {
        render(AccessibilityTree.elements(nodes))
    }

    /// The outline of already read elements.
    package static func render(_ elements: [AccessibilityElement]) -> String {
        var out = ""
        for element in elements {
            out += line(element)
            out += "\n"
        }
        return out
    }

    /// One element's line, without its newline.
    package static func line(_ element: AccessibilityElement) -> String {
        var line = String(repeating: "  ", count: element.depth) + element.role.rawValue
        if let level = element.level { line += " level \(level)" }
        if element.role != .list {
            line += element.name.isEmpty ? " (unnamed)" : " " + TextProjection.quote(element.name)
        }
        if let value = element.value { line += " value " + TextProjection.quote(value) }
        for state in element.states { line += " " + state }
        if let hint = element.hint { line += " hint " + TextProjection.quote(hint) }
        return line
    }
}
