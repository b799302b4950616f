/// The text projection: a deterministic, indented outline with one node per line.
///
/// Made for code review diffs: `button "Log in" -> login`. Strings are quoted with `\"`, `\\`,
/// `\n`, `\r`, `\t` and `\u{..}` escapes so a line is always one node, and nothing depends on the
/// machine, the locale or the time.
public enum TextProjection {
    /// The outline of `nodes`, ending with a newline.
    public static func render(_ nodes: [ViewNode]) -> String {
        var lines: [String] = []
        for node in nodes { append(node, depth: 0, to: &lines) }
        return lines.isEmpty ? "" : lines.joined(separator: "\n") + "\n"
    }

    private static func append(_ node: ViewNode, depth: Int, to lines: inout [String]) {
        let indent = String(repeating: "  ", count: depth)
        func line(_ text: String) { lines.append(indent + text) }
        func children(_ nodes: [ViewNode]) {
            for child in nodes { append(child, depth: depth + 1, to: &lines) }
        }
        switch node {
        case .stack(let axis, let nodes):
            line(axis == .vertical ? "vstack" : "hstack")
            children(nodes)
        case .text(let text):
            line("text \(quote(text))")
        case .heading(let text, let level):
            line("heading\(level) \(quote(text))")
        case .button(let label, let command):
            line("button \(quote(label))\(arrow(command))")
        case .textField(let label, let value, let isSecure, let command):
            let shown = isSecure ? String(repeating: "•", count: value.count) : value
            line("\(isSecure ? "securefield" : "textfield") \(quote(label)) = \(quote(shown))\(arrow(command))")
        case .toggle(let label, let isOn, let command):
            line("toggle \(quote(label)) \(isOn ? "on" : "off")\(arrow(command))")
        case .list(let items):
            line("list (\(items.count) \(items.count == 1 ? "item" : "items"))")
            children(items)
        case .listItem(let isSelected, let command, let nodes):
            line("item\(isSelected ? " (selected)" : "")\(arrow(command))")
            children(nodes)
        case .image(let url, let alt):
            line("image \(quote(alt)) <\(escape(url))>")
        case .progress(let label, let fraction):
            if let fraction {
                line("progress \(quote(label)) \(Int((fraction * 100).rounded()))%")
            } else {
                line("spinner \(quote(label))")
            }
        case .badge(let text, let tone):
            line("badge \(quote(text))\(tone == .neutral ? "" : " (\(tone.rawValue))")")
        case .section(let title, let nodes):
            line("section \(quote(title))")
            children(nodes)
        case .divider:
            line("divider")
        case .component(let title, let nodes):
            line("component \(quote(title))")
            children(nodes)
        case .iconButton(let icon, let command):
            line("button icon \(quote(icon))\(arrow(command))")
        case .accessible(_, let wrapped):
            append(wrapped, depth: depth, to: &lines)  // what it shows; the accessibility outline has the rest
        }
    }

    private static func arrow(_ command: Command?) -> String {
        command.map { " -> \(escape($0.name))" } ?? ""
    }

    /// `text` in double quotes with the projection's escapes, so it stays on one line.
    static func quote(_ text: String) -> String {
        "\"" + escape(text, quotes: true) + "\""
    }

    private static func escape(_ text: String, quotes: Bool = false) -> String {
        // Most texts need no escape: one pass over the bytes finds out (0xE2 leads U+2028 and U+2029).
        let needsEscape = text.utf8.contains { byte in
            byte < 0x20 || byte == 0x7F || byte == UInt8(ascii: "\\") || byte == 0xE2 || (quotes && byte == UInt8(ascii: "\""))
        }
        guard needsEscape else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"" where quotes: result += "\\\""
            case "\\": result += "\\\\"
            case "\n": result += "\\n"
            case "\r": result += "\\r"
            case "\t": result += "\\t"
            case _ where scalar.value < 0x20 || scalar.value == 0x7F || (0x2028...0x2029).contains(scalar.value):
                result += "\\u{\(String(scalar.value, radix: 16))}"
            default: result.unicodeScalars.append(scalar)
            }
        }
        return result
    }
}
