/// The HTML projection of some props cut where the text of one string field shows, so a client can
/// show what typing into that field will render before the server answers: the typed text, escaped
/// as ``HTMLProjection/escape(_:)`` escapes it, put back in every cut gives the preview.
///
/// A template is only made when the projection shows the field's text as is. The props are rendered
/// once more with a marker in the field, and the result, with the marker replaced by the field's
/// live text, must be the live HTML code unit for code unit; with the field empty, it must be the
/// template filled with nothing. A view that changes the text (its case, cuts it, shows its length,
/// a placeholder for the empty string, writes it as JSON) fails one of those checks and gets no
/// template. The marker holds upper- and lowercase letters and a backslash (which JSON escapes and
/// HTML does not), and is longer than the live text and than ``markerLength`` characters, so those
/// views are caught even when they agree with the live text.
///
/// It is a guess all the same: a view may treat values it was not checked with differently (text
/// cut at more than ``markerLength`` characters, a word it shows differently). The server's state
/// for the text replaces it.
package struct PreviewTemplate: Sendable, Equatable {
    /// The HTML between the places the field's text shows: one more part than places.
    package let parts: [String]

    /// The template of the field at `pointer` of `props` as `component` renders it in `environment`,
    /// checked against `live`, the projections of `props` in that environment; nil when the field
    /// is not a string or the projection does not show it as is.
    package static func make(_ component: AnyComponent, props: JSONValue, at pointer: JSONPointer, in environment: ViewEnvironment, live: Projections) -> PreviewTemplate? {
        guard !pointer.tokens.isEmpty, case .string(let text)? = props.value(at: pointer) else { return nil }
        let marker = marker(longerThan: text)
        // No memo: these validations must not count as the session's last (see RoundTripMemo.forgetReplaced).
        guard let marked = html(of: props.replacing(at: pointer, with: .string(marker)), component, in: environment, reusing: live) else { return nil }
        let parts = split(marked, at: marker)
        guard parts.count > 1 else { return nil }
        let template = PreviewTemplate(parts: parts)
        guard template.reproduces(live.html, filledWith: text) else { return nil }
        // The empty field too (a placeholder); a Props type that refuses it leaves nothing to show.
        if !text.isEmpty, let empty = html(of: props.replacing(at: pointer, with: .string("")), component, in: environment, reusing: live),
           !template.reproduces(empty, filledWith: "") {
            return nil
        }
        return template
    }

    /// How long the marker is at least: a view that cuts the text shorter than this gets no template.
    package static let markerLength = 40

    /// The HTML this template gives for `text` in its field.
    package func filled(with text: String) -> String {
        parts.joined(separator: HTMLProjection.escape(text))
    }

    /// Whether this template, filled with `text`, is `html` exactly (the same UTF-8, not merely
    /// canonically equivalent text). Compared part by part over the strings' bytes, without making
    /// the filled HTML: the server asks this of every version while someone types.
    package func reproduces(_ html: String, filledWith text: String) -> Bool {
        var html = html
        var escaped = HTMLProjection.escape(text)
        return html.withUTF8 { html in
            escaped.withUTF8 { escaped in
                var offset = 0
                for (index, part) in parts.enumerated() {
                    if index > 0, !Self.take(escaped, from: html, at: &offset) { return false }
                    var part = part
                    guard part.withUTF8({ Self.take($0, from: html, at: &offset) }) else { return false }
                }
                return offset == html.count
            }
        }
    }

    /// Whether `bytes` come next in `html` at `offset`, which then moves past them.
    private static func take(_ bytes: UnsafeBufferPointer<UInt8>, from html: UnsafeBufferPointer<UInt8>, at offset: inout Int) -> Bool {
        guard html.count - offset >= bytes.count,
              UnsafeBufferPointer(rebasing: html[offset..<offset + bytes.count]).elementsEqual(bytes) else { return false }
        offset += bytes.count
        return true
    }

    /// Where `text`, escaped, shows in ``filled(with:)``'s HTML: the UTF-16 offset of each
    /// occurrence (what a browser's string indices count), and their length in UTF-16.
    package func offsets(filledWith text: String) -> (offsets: [Int], length: Int) {
        let length = HTMLProjection.escape(text).utf16.count
        var offsets: [Int] = []
        var offset = 0
        for part in parts.dropLast() {
            offset += part.utf16.count
            offsets.append(offset)
            offset += length
        }
        return (offsets, length)
    }

    /// Private-use characters around letters of both cases and a backslash, padded to be longer than
    /// `text` and at least ``markerLength`` characters.
    private static func marker(longerThan text: String) -> String {
        let core = "\u{E000}Story\\book"
        let length = max(markerLength, text.count + 1)
        return core + String(repeating: "x", count: max(0, length - core.count - 1)) + "\u{E001}"
    }

    /// The HTML of `props`, nil when they do not validate.
    private static func html(of props: JSONValue, _ component: AnyComponent, in environment: ViewEnvironment, reusing live: Projections) -> String? {
        guard case .success(let validated) = component.validate(props, in: environment) else { return nil }
        return Projections(validated.view, reusing: live).html
    }

    /// `html` cut at every occurrence of `marker`, compared as UTF-8 bytes (the marker's scalars
    /// are whole, so every part is valid UTF-8).
    private static func split(_ html: String, at marker: String) -> [String] {
        let bytes = Array(html.utf8)
        let pattern = Array(marker.utf8)
        var parts: [String] = []
        var start = 0
        var index = 0
        while index + pattern.count <= bytes.count {
            if bytes[index] == pattern[0], bytes[index..<index + pattern.count].elementsEqual(pattern) {
                parts.append(String(decoding: bytes[start..<index], as: UTF8.self))
                index += pattern.count
                start = index
            } else {
                index += 1
            }
        }
        parts.append(String(decoding: bytes[start...], as: UTF8.self))
        return parts
    }
}
