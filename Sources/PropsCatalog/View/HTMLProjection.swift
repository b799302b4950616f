/// The HTML projection: a semantic fragment with every text and attribute escaped.
///
/// Real `<button>`, `<input>`, `<ul>` elements; commands become `data-command` attributes holding
/// the command's JSON, which the browser UI turns into `dispatch` messages. No props value can
/// inject markup: text and attribute values are escaped, and image URLs are limited to
/// `http:`, `https:` and `data:image/`.
public enum HTMLProjection {
    /// The fragment for `nodes`, ending with a newline.
    public static func fragment(_ nodes: [ViewNode]) -> String {
        var out = ""
        for node in nodes { append(node, depth: 0, to: &out) }
        return out
    }

    /// A complete standalone document: doctype, charset, a small inline stylesheet and the fragment.
    public static func document(_ nodes: [ViewNode], title: String) -> String {
        document(fragment: fragment(nodes), title: title)
    }

    /// A complete standalone document around an already rendered fragment.
    public static func document(fragment: String, title: String) -> String {
        """
        <!doctype html>
        <html lang="en">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>
        \(stylesheet)</style>
        </head>
        <body>
        <main class="sb-root">
        \(fragment)</main>
        </body>
        </html>

        """
    }

    /// The stylesheet of standalone documents; the browser UI's preview uses the same rules.
    public static let stylesheet = """
        :root { color-scheme: light dark; font-family: system-ui, sans-serif; line-height: 1.4; }
        body { margin: 0; padding: 16px; }
        .sb-root { display: flex; flex-direction: column; gap: 8px; max-width: 720px; }
        .sb-vstack { display: flex; flex-direction: column; gap: 8px; }
        .sb-hstack { display: flex; flex-direction: row; gap: 8px; align-items: center; flex-wrap: wrap; }
        .sb-text { margin: 0; overflow-wrap: anywhere; }
        h1, h2, h3, h4, h5, h6 { margin: 0; overflow-wrap: anywhere; }
        .sb-field { display: flex; flex-direction: column; gap: 2px; font-size: 0.9em; }
        .sb-field input { font: inherit; padding: 6px 8px; border: 1px solid #8888; border-radius: 6px; }
        .sb-toggle { display: flex; gap: 6px; align-items: center; }
        button { font: inherit; padding: 6px 14px; border-radius: 6px; border: 1px solid #8888; cursor: pointer; }
        .sb-list { list-style: none; margin: 0; padding: 0; border: 1px solid #8884; border-radius: 6px; }
        .sb-item { padding: 6px 10px; border-bottom: 1px solid #8883; }
        .sb-item:last-child { border-bottom: none; }
        .sb-item[aria-selected="true"] { background: #3b82f633; }
        .sb-item[data-command] { cursor: pointer; }
        .sb-image { max-width: 100%; max-height: 240px; border-radius: 6px; }
        .sb-spinner::before { content: ""; display: inline-block; width: 1em; height: 1em; margin-right: 6px; vertical-align: -2px;
          border: 2px solid currentColor; border-right-color: transparent; border-radius: 50%; animation: sb-spin 0.8s linear infinite; }
        @keyframes sb-spin { to { transform: rotate(360deg); } }
        .sb-badge { display: inline-block; padding: 1px 8px; border-radius: 999px; font-size: 0.8em; background: #8883; }
        .sb-badge-info { background: #3b82f633; } .sb-badge-success { background: #22c55e33; }
        .sb-badge-warning { background: #f59e0b44; } .sb-badge-danger { background: #ef444444; }
        .sb-section { border: 1px solid #8884; border-radius: 8px; padding: 8px 12px; display: flex; flex-direction: column; gap: 8px; }
        .sb-section > h3 { font-size: 0.95em; }
        .sb-divider { border: none; border-top: 1px solid #8886; width: 100%; margin: 4px 0; }
        .sb-component { border: 1px dashed #8886; border-radius: 8px; padding: 8px; display: flex; flex-direction: column; gap: 8px; }
        .sb-component-title { font-size: 0.75em; opacity: 0.7; }

        """

    private static func append(_ node: ViewNode, depth: Int, to out: inout String) {
        let indent = String(repeating: "  ", count: depth)
        func line(_ text: String) { out += indent + text + "\n" }
        func children(_ nodes: [ViewNode]) {
            for child in nodes { append(child, depth: depth + 1, to: &out) }
        }
        switch node {
        case .stack(let axis, let nodes):
            line("<div class=\"sb-\(axis == .vertical ? "vstack" : "hstack")\">")
            children(nodes)
            line("</div>")
        case .text(let text):
            line("<p class=\"sb-text\">\(escape(text))</p>")
        case .heading(let text, let level):
            line("<h\(level)>\(escape(text))</h\(level)>")
        case .button(let label, let command):
            line("<button type=\"button\"\(commandAttribute(command))>\(escape(label))</button>")
        case .textField(let label, let value, let isSecure, let command):
            let type = isSecure ? "password" : "text"
            line("<label class=\"sb-field\"><span>\(escape(label))</span>"
                + "<input type=\"\(type)\" value=\"\(escape(value))\"\(commandAttribute(command))></label>")
        case .toggle(let label, let isOn, let command):
            line("<label class=\"sb-toggle\"><input type=\"checkbox\" role=\"switch\"\(isOn ? " checked" : "")"
                + "\(commandAttribute(command))><span>\(escape(label))</span></label>")
        case .list(let items):
            line("<ul class=\"sb-list\">")
            children(items)
            line("</ul>")
        case .listItem(let isSelected, let command, let nodes):
            line("<li class=\"sb-item\" aria-selected=\"\(isSelected)\"\(commandAttribute(command))>")
            children(nodes)
            line("</li>")
        case .image(let url, let alt):
            let source = isSafeImageURL(url) ? " src=\"\(escape(url))\"" : ""
            line("<img class=\"sb-image\"\(source) alt=\"\(escape(alt))\">")
        case .progress(let label, let fraction):
            if let fraction {
                line("<label class=\"sb-field\"><span>\(escape(label))</span>"
                    + "<progress max=\"1\" value=\"\(JSONValue.format(fraction))\">\(Int((fraction * 100).rounded()))%</progress></label>")
            } else {
                line("<p class=\"sb-spinner\" role=\"status\">\(escape(label))</p>")
            }
        case .badge(let text, let tone):
            line("<span class=\"sb-badge sb-badge-\(tone.rawValue)\">\(escape(text))</span>")
        case .section(let title, let nodes):
            line("<section class=\"sb-section\">")
            line("  <h3>\(escape(title))</h3>")
            children(nodes)
            line("</section>")
        case .divider:
            line("<hr class=\"sb-divider\">")
        case .component(let title, let nodes):
            line("<div class=\"sb-component\" data-component=\"\(escape(title))\">")
            line("  <span class=\"sb-component-title\">\(escape(title))</span>")
            children(nodes)
            line("</div>")
        }
    }

    private static func commandAttribute(_ command: Command?) -> String {
        guard let command else { return "" }
        return " data-command=\"\(escape(JSONValue.string(command.name).serialized()))\""
    }

    private static func isSafeImageURL(_ url: String) -> Bool {
        let lowered = url.lowercased()
        return lowered.hasPrefix("https://") || lowered.hasPrefix("http://") || lowered.hasPrefix("data:image/")
    }

    /// Escapes text for element content and double- or single-quoted attribute values.
    public static func escape(_ text: String) -> String {
        let needsEscape = text.utf8.contains { byte in
            byte == UInt8(ascii: "&") || byte == UInt8(ascii: "<") || byte == UInt8(ascii: ">")
                || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "'")
        }
        guard needsEscape else { return text }
        var result = ""
        result.reserveCapacity(text.utf8.count)
        for character in text.unicodeScalars {
            switch character {
            case "&": result += "&amp;"
            case "<": result += "&lt;"
            case ">": result += "&gt;"
            case "\"": result += "&quot;"
            case "'": result += "&#39;"
            default: result.unicodeScalars.append(character)
            }
        }
        return result
    }
}
