import Foundation
import PropsCatalog

/// The renderer protocol's messages (docs/protocol.md, "Renderers"): a connection announcing itself
/// as a renderer, a browser asking a renderer to show a story, a renderer reporting a render.
enum RendererMessage: Equatable {
    /// `{"type": "renderer", "name", "platform", "components": [...]}`
    case announce(name: String, platform: String, components: [String])
    /// `{"type": "renderers"}`: the sender gets the list of renderers now and whenever it changes.
    case watch
    /// `{"type": "show", "renderer", "story"}`
    case show(renderer: String, story: String, ref: String?)
    /// `{"type": "rendered", "story", "version", ["image"], ["text"], ["error"]}`
    case rendered(RendererReport.Content, story: String, version: Int)

    /// The longest renderer name and platform description accepted.
    static let maxNameLength = 80

    /// Parses the renderer messages; nil when `type` is none of them.
    static func parse(type: String, _ reader: FieldReader) throws(APIError) -> RendererMessage? {
        switch type {
        case "renderer":
            let name = try label(reader, "name")
            let platform = try label(reader, "platform")
            guard let list = reader.fields["components"] else {
                throw APIError(.badMessage, "missing field components", path: "/components")
            }
            guard case .array(let elements) = list else {
                throw APIError(.badMessage, "components must be an array of component ids, found \(list.kindDescription)", path: "/components")
            }
            var components: [String] = []
            for (index, element) in elements.enumerated() {
                guard case .string(let id) = element else {
                    throw APIError(.badMessage, "components/\(index) must be a string, found \(element.kindDescription)", path: "/components/\(index)")
                }
                if !components.contains(id) { components.append(id) }
            }
            return .announce(name: name, platform: platform, components: components)
        case "renderers":
            return .watch
        case "show":
            return .show(renderer: try reader.string("renderer"), story: try reader.string("story"), ref: try reader.optionalString("ref"))
        case "rendered":
            let story = try reader.string("story")
            guard let version = try reader.optionalVersion("version") else {
                throw APIError(.badMessage, "missing field version", path: "/version")
            }
            let content = RendererReport.Content(
                image: try image(reader), text: try reader.optionalString("text"), error: try reader.optionalString("error"))
            guard content.image != nil || content.text != nil || content.error != nil else {
                throw APIError(.badMessage, "a report carries at least one of image, text and error", path: "")
            }
            return .rendered(content, story: story, version: version)
        default:
            return nil
        }
    }

    /// A non-empty, single-line string of at most ``maxNameLength`` characters.
    private static func label(_ reader: FieldReader, _ name: String) throws(APIError) -> String {
        let value = try reader.string(name)
        guard !value.isEmpty, value.count <= maxNameLength, !value.contains(where: \.isNewline),
              !value.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            throw APIError(.badMessage, "\(name) must be 1 to \(maxNameLength) characters on one line", path: "/\(name)")
        }
        return value
    }

    /// The base64 PNG of `image`, decoded and checked.
    private static func image(_ reader: FieldReader) throws(APIError) -> [UInt8]? {
        guard let base64 = try reader.optionalString("image") else { return nil }
        guard let data = Data(base64Encoded: base64) else {
            throw APIError(.badMessage, "image must be base64 (RFC 4648, with padding)", path: "/image")
        }
        let bytes = [UInt8](data)
        guard bytes.starts(with: pngSignature) else {
            throw APIError(.badMessage, "image must be a PNG (its bytes do not start with the PNG signature)", path: "/image")
        }
        return bytes
    }

    private static let pngSignature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
}

extension RendererMessage {
    /// The `ref` to echo in an error about this message.
    var ref: String? {
        if case .show(_, _, let ref) = self { return ref }
        return nil
    }

    /// The story the message is about, if any.
    var story: String? {
        switch self {
        case .announce, .watch: nil
        case .show(_, let story, _), .rendered(_, let story, _): story
        }
    }
}
