/// The HTML projection: a semantic fragment with every text and attribute escaped.
///
/// Real `<button>`, `<input>`, `<ul>` elements; commands become `data-command` attributes holding
/// the command's JSON, which the browser UI turns into `dispatch` messages. No props value can
/// inject markup: text and attribute values are escaped, and image URLs are limited to
/// `http:`, `https:` and `data:image/`.
public enum HTMLProjection {
    /// The fragment for `nodes`, ending with a newline.
    public static func fragment(_ nodes: [ViewNode]) -> String {
        fragment(nodes, reusing: nil).output
    }

    /// The fragment for `nodes` and its memo, copying the lines of every node equal to the node at the
    /// same position in `previous` (a view, its fragment and that fragment's memo) instead of rendering them.
    static func fragment(
        _ nodes: [ViewNode], reusing previous: (view: [ViewNode], output: String, memo: RenderMemo)?
    ) -> (output: String, memo: RenderMemo) {
        ProjectionWriter.roots(nodes, reusing: previous) { node, match, out in append(node, depth: 0, match: match, to: &out) }
    }

    /// A complete standalone document: doctype, charset, a small inline stylesheet and the fragment.
    public static func document(_ nodes: [ViewNode], title: String, environment: ViewEnvironment = .standard) -> String {
        document(fragment: fragment(nodes), title: title, environment: environment)
    }

    /// A complete standalone document around an already rendered fragment, reflecting `environment`:
    /// `lang` and `dir`, the colour scheme's stylesheet, text sized for the Dynamic Type size, the width.
    public static func document(fragment: String, title: String, environment: ViewEnvironment = .standard) -> String {
        """
        <!doctype html>
        <html lang="\(escape(environment.locale))" dir="\(environment.layoutDirection.rawValue)">
        <head>
        <meta charset="utf-8">
        <meta name="viewport" content="width=device-width, initial-scale=1">
        <title>\(escape(title))</title>
        <style>
        \(stylesheet)\(environmentStylesheet(environment))</style>
        </head>
        <body>
        <main class="sb-root">
        \(fragment)</main>
        </body>
        </html>

        """
    }

    /// The stylesheet of standalone documents; the browser UI's preview uses the same rules.
    package static let stylesheet = """
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
        .sb-item[data-selected="true"] { background: #3b82f633; }
        .sb-item { display: flex; gap: 8px; align-items: center; }
        .sb-row { flex: 1; cursor: pointer; display: flex; flex-direction: column; gap: 2px; }
        .sb-icon-button { padding: 6px 10px; }
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

    /// The rules that put a document in `environment`: colour scheme, type size and width.
    package static func environmentStylesheet(_ environment: ViewEnvironment) -> String {
        var rules = ":root { color-scheme: \(environment.colorScheme.rawValue); font-size: \(environment.dynamicType.bodyPointSize)px; }\n"
        if environment.colorScheme == .dark {
            rules += "body { background: #1c1c1e; color: #f2f2f7; }\nbutton, input { background: #2c2c2e; color: #f2f2f7; }\n"
        }
        if let width = environment.width {
            rules += "body { width: \(width)px; box-sizing: border-box; }\n"
        }
        return rules
    }

    /// Writes the element of `node` at `depth` with `extra` attributes; `match` is the previous node at
    /// the same position, depth and attributes.
    private static func append(
        _ node: ViewNode, depth: Int, match: ProjectionWriter.Match?, to out: inout ProjectionWriter, attributes extra: String = ""
    ) -> RenderMemo.Entry {
        out.node(node, match: match) { out, match in
            func line(_ text: ProjectionLine) { out.line(text, depth: depth) }
            func children(_ nodes: [ViewNode], previous: ProjectionWriter.Match? = match?.ifSameKind(as: node)) -> [RenderMemo.Entry] {
                out.children(nodes, of: previous) { node, match, out in append(node, depth: depth + 1, match: match, to: &out) }
            }
            /// An element whose children go between its opening lines and its closing line.
            func container(_ opening: ProjectionLine..., closing: ProjectionLine, _ nodes: [ViewNode]) -> [RenderMemo.Entry] {
                opening.forEach(line)
                let entries = children(nodes)
                line(closing)
                return entries
            }
            switch node {
            case .stack(let axis, let nodes):
                return container(#"<div class="sb-\#(axis == .vertical ? "vstack" : "hstack")"\#(extra)>"#, closing: "</div>", nodes)
            case .text(let text):
                line(#"<p class="sb-text"\#(extra)>\#(html: text)</p>"#)
            case .heading(let text, let level):
                line("<h\(level)\(extra)>\(html: text)</h\(level)>")
            case .button(let label, let command):
                line(#"<button type="button"\#(commandAttribute(command))\#(extra)>\#(html: label)</button>"#)
            case .iconButton(let icon, let command):
                line("""
                    <button type="button" class="sb-icon-button" data-icon="\(html: icon)"\(commandAttribute(command))\(extra)>\
                    <span class="sb-icon" aria-hidden="true">\(html: glyph(icon))</span></button>
                    """)
            case .textField(let label, let value, let isSecure, let command):
                let type = isSecure ? "password" : "text"
                line("""
                    <label class="sb-field"><span>\(html: label)</span>\
                    <input type="\(type)" value="\(html: value)"\(commandAttribute(command))\(extra)></label>
                    """)
            case .toggle(let label, let isOn, let command):
                line("""
                    <label class="sb-toggle"><input type="checkbox" role="switch"\(isOn ? " checked" : "")\
                    \(commandAttribute(command))\(extra)><span>\(html: label)</span></label>
                    """)
            case .list(let items):
                return container(#"<ul class="sb-list"\#(extra)>"#, closing: "</ul>", items)
            case .listItem(let isSelected, let command, let nodes):
                let selected = isSelected ? " data-selected=\"true\"" : ""
                guard command != nil else {
                    line(#"<li class="sb-item"\#(selected)\#(extra)>"#)
                    // the previous item's children were where these go only if it had no command either
                    let previous: ProjectionWriter.Match? = if case .listItem(_, nil, _)? = match?.node { match } else { nil }
                    let entries = children(nodes, previous: previous)
                    line("</li>")
                    return entries
                }
                // A row that does something is a button named by its content; controls inside stay beside it.
                line(#"<li class="sb-item"\#(selected)>"#)
                line(#"  <div class="sb-row" role="button" tabindex="0"\#(isSelected ? #" aria-current="true""# : "")\#(commandAttribute(command))\#(extra)>"#)
                var entries = [RenderMemo.Entry](repeating: RenderMemo.Entry(start: 0, length: 0, children: []), count: nodes.count)
                // the previous item's children were where these go if it had a command too and each was as much a control
                let previous: ProjectionWriter.Match? = if case .listItem(_, .some, _)? = match?.node { match } else { nil }
                func child(_ index: Int) -> ProjectionWriter.Match? {
                    previous?.child(index, of: nodes).flatMap { $0.node.isControl == nodes[index].isControl ? $0 : nil }
                }
                for (index, node) in nodes.enumerated() where !node.isControl {
                    entries[index] = append(node, depth: depth + 2, match: child(index), to: &out)
                }
                line("  </div>")
                for (index, node) in nodes.enumerated() where node.isControl {
                    entries[index] = append(node, depth: depth + 1, match: child(index), to: &out)
                }
                line("</li>")
                return entries
            case .image(let url, let alt):
                // No alt at all when there is no text alternative: `alt=""` would claim the image is decorative.
                let hasAlternative = !extra.contains(" alt=") && (!alt.isEmpty || extra.contains(" aria-label="))
                line(#"<img class="sb-image"\#(attribute: "src", isSafeImageURL(url) ? url : nil)\#(attribute: "alt", hasAlternative ? alt : nil)\#(extra)>"#)
            case .progress(let label, let fraction):
                if let fraction {
                    line("""
                        <label class="sb-field"><span>\(html: label)</span>\
                        <progress max="1" value="\(JSONValue.format(fraction))"\(extra)>\(Int((fraction * 100).rounded()))%</progress></label>
                        """)
                } else {
                    line(#"<p class="sb-spinner" role="status"\#(extra)>\#(html: label)</p>"#)
                }
            case .badge(let text, let tone):
                line(#"<span class="sb-badge sb-badge-\#(tone.rawValue)"\#(extra)>\#(html: text)</span>"#)
            case .section(let title, let nodes):
                return container(#"<section class="sb-section"\#(extra)>"#, "  <h3>\(html: title)</h3>", closing: "</section>", nodes)
            case .divider:
                line(#"<hr class="sb-divider"\#(extra)>"#)
            case .component(let title, let nodes):
                return container(#"<div class="sb-component" data-component="\#(html: title)"\#(extra)>"#,
                                 #"  <span class="sb-component-title">\#(html: title)</span>"#, closing: "</div>", nodes)
            case .accessible(let info, let wrapped):
                let attributes = accessibilityAttributes(info, for: wrapped)
                // the previous node's wrapped node had the same attributes only if it had the same accessibility attributes
                var previous: ProjectionWriter.Match?
                if case .accessible(let oldInfo, let oldWrapped)? = match?.node, accessibilityAttributes(oldInfo, for: oldWrapped) == attributes {
                    previous = match?.child(0, of: [wrapped])
                }
                return [append(wrapped, depth: depth, match: previous, to: &out, attributes: attributes + extra)]
            }
            return []
        }
    }

    /// The ARIA attributes of accessibility settings on the element of `node`: `aria-label`, `title`
    /// (the hint, and a value where the role has no value attribute: the accessible description),
    /// `aria-valuetext`, `role="heading"` with `aria-level`, and `aria-hidden` (`alt=""` on an image).
    private static func accessibilityAttributes(_ info: AccessibilityInfo, for node: ViewNode) -> String {
        var attributes = ""
        if info.isHidden {
            if case .image = node { return " alt=\"\"" }
            return " aria-hidden=\"true\""
        }
        if let level = info.headingLevel, node.acceptsHeadingRole {
            attributes += " role=\"heading\" aria-level=\"\(level)\""
        }
        if let label = info.label {
            if case .image = node { attributes += " alt=\"\(escape(label))\"" } else { attributes += " aria-label=\"\(escape(label))\"" }
        }
        var description = [info.hint].compactMap { $0 }
        if let value = info.value {
            if case .progress(_, .some) = node { attributes += " aria-valuetext=\"\(escape(value))\"" } else { description.insert(value, at: 0) }
        }
        if !description.isEmpty { attributes += " title=\"\(escape(description.joined(separator: ". ")))\"" }
        return attributes
    }

    /// The character an icon name shows; unknown names show a bullet.
    static func glyph(_ icon: String) -> String {
        switch icon {
        case "trash": "✗"
        case "plus": "+"
        case "minus": "−"
        case "xmark": "✕"
        case "chevron.left", "chevron.backward": "‹"
        case "chevron.right", "chevron.forward": "›"
        case "star": "☆"
        case "star.fill": "★"
        case "heart": "♡"
        case "heart.fill": "♥"
        case "gear": "⚙"
        case "magnifyingglass": "⌕"
        case "info": "ⓘ"
        case "pencil": "✎"
        case "square.and.arrow.up": "⇪"
        default: "•"
        }
    }

    private static func commandAttribute(_ command: Command?) -> String {
        guard let command else { return "" }
        return " data-command=\"\(escape(JSONValue.string(command.name).serialized()))\""
    }

    private static func isSafeImageURL(_ url: String) -> Bool {
        url.hasASCIICaseInsensitivePrefix("https://") || url.hasASCIICaseInsensitivePrefix("http://")
            || url.hasASCIICaseInsensitivePrefix("data:image/")
    }

    /// Escapes text for element content and double- or single-quoted attribute values.
    package static func escape(_ text: String) -> String {
        let needsEscape = text.containsUTF8Byte { byte in
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

extension ProjectionLine.StringInterpolation {
    /// `text` escaped for element content and attribute values (``HTMLProjection/escape(_:)``).
    mutating func appendInterpolation(html text: String) {
        appendInterpolation(HTMLProjection.escape(text))
    }

    /// ` name="value"` with the value escaped, or nothing when `value` is nil.
    mutating func appendInterpolation(attribute name: String, _ value: String?) {
        guard let value else { return }
        appendLiteral(" ")
        appendLiteral(name)
        appendLiteral("=\"")
        appendInterpolation(html: value)
        appendLiteral("\"")
    }
}
