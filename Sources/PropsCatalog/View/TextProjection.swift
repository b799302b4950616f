/// The text projection: a deterministic, indented outline with one node per line.
///
/// Made for code review diffs: `button "Log in" -> login`. Strings are quoted with `\"`, `\\`,
/// `\n`, `\r`, `\t` and `\u{..}` escapes so a line is always one node, and nothing depends on the
/// machine, the locale or the time.
public enum TextProjection {
    /// The outline of `nodes`, ending with a newline.
    public static func render(_ nodes: [ViewNode]) -> String {
        render(nodes, reusing: nil).output
    }

    /// The outline of `nodes` and its memo, copying the lines of every node equal to the node at the
    /// same position in `previous` (a view, its outline and that outline's memo) instead of rendering them.
    static func render(
        _ nodes: [ViewNode], reusing previous: (view: [ViewNode], output: String, memo: RenderMemo)?
    ) -> (output: String, memo: RenderMemo) {
        ProjectionWriter.roots(nodes, reusing: previous) { node, match, out in append(node, depth: 0, match: match, to: &out) }
    }

    /// Writes the lines of `node` at `depth`; `match` is the previous node at the same position and depth.
    private static func append(_ node: ViewNode, depth: Int, match: ProjectionWriter.Match?, to out: inout ProjectionWriter) -> RenderMemo.Entry {
        out.node(node, match: match) { out, match in
            func line(_ text: ProjectionLine) { out.line(text, depth: depth) }
            func children(_ nodes: [ViewNode], depth: Int) -> [RenderMemo.Entry] {
                out.children(nodes, of: match?.ifSameKind(as: node)) { node, match, out in append(node, depth: depth, match: match, to: &out) }
            }
            switch node {
            case .stack(let axis, let nodes):
                line(axis == .vertical ? "vstack" : "hstack")
                return children(nodes, depth: depth + 1)
            case .text(let text):
                line("text \(quoted: text)")
            case .heading(let text, let level):
                line("heading\(level) \(quoted: text)")
            case .button(let label, let command):
                line("button \(quoted: label)\(arrow(command))")
            case .textField(let label, let value, let isSecure, let command):
                let shown = isSecure ? String(repeating: "•", count: value.count) : value
                line("\(isSecure ? "securefield" : "textfield") \(quoted: label) = \(quoted: shown)\(arrow(command))")
            case .toggle(let label, let isOn, let command):
                line("toggle \(quoted: label) \(isOn ? "on" : "off")\(arrow(command))")
            case .list(let items):
                line("list (\(items.count) \(items.count == 1 ? "item" : "items"))")
                return children(items, depth: depth + 1)
            case .listItem(let isSelected, let command, let nodes):
                line("item\(isSelected ? " (selected)" : "")\(arrow(command))")
                return children(nodes, depth: depth + 1)
            case .image(let url, let alt):
                line("image \(quoted: alt) <\(escape(url))>")
            case .progress(let label, let fraction):
                if let fraction {
                    line("progress \(quoted: label) \(Int((fraction * 100).rounded()))%")
                } else {
                    line("spinner \(quoted: label)")
                }
            case .badge(let text, let tone):
                line("badge \(quoted: text)\(tone == .neutral ? "" : " (\(tone.rawValue))")")
            case .section(let title, let nodes):
                line("section \(quoted: title)")
                return children(nodes, depth: depth + 1)
            case .divider:
                line("divider")
            case .component(let title, let nodes):
                line("component \(quoted: title)")
                return children(nodes, depth: depth + 1)
            case .iconButton(let icon, let command):
                line("button icon \(quoted: icon)\(arrow(command))")
            case .accessible(_, let wrapped):
                return children([wrapped], depth: depth)  // what it shows; the accessibility outline has the rest
            }
            return []
        }
    }

    private static func arrow(_ command: Command?) -> String {
        command.map { " -> \(escape($0.name))" } ?? ""
    }

    /// `text` in double quotes with the projection's escapes, so it stays on one line.
    static func quote(_ text: String) -> String {
        "\"" + escape(text, quotes: true) + "\""
    }

    fileprivate static func escape(_ text: String, quotes: Bool = false) -> String {
        // Most texts need no escape: one pass over the bytes finds out (0xE2 leads U+2028 and U+2029).
        let needsEscape = text.containsUTF8Byte { byte in
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

extension ProjectionLine.StringInterpolation {
    /// `text` in double quotes with the text projection's escapes (``TextProjection/quote(_:)``).
    mutating func appendInterpolation(quoted text: String) {
        appendLiteral("\"")
        appendInterpolation(TextProjection.escape(text, quotes: true))
        appendLiteral("\"")
    }
}
