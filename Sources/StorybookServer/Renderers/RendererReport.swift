import Foundation
import PropsCatalog

/// What a renderer said after rendering one version of a story.
struct RendererReport: Equatable {
    /// The rendered result: an image, a text, an error, or several of them.
    struct Content: Equatable {
        /// PNG bytes (checked for the PNG signature).
        var image: [UInt8]?
        var text: String?
        /// Why the render failed, in the renderer's words.
        var error: String?
    }

    let story: String
    let version: Int
    let content: Content
    let at: Date

    /// The `rendered` message browsers get: the report with the renderer's name and the image in base64.
    func message(renderer: String) -> JSONValue {
        var members: [String: JSONValue] = [
            "type": "rendered", "renderer": .string(renderer), "story": .string(story),
            "version": .integer(Int64(version)), "at": .string(ISO8601.string(from: at)),
        ]
        if let image = content.image { members["image"] = .string(Data(image).base64EncodedString()) }
        if let text = content.text { members["text"] = .string(text) }
        if let error = content.error { members["error"] = .string(error) }
        return .object(members)
    }

    /// The summary `GET /api/renderers` lists: no image bytes, the routes that serve them instead.
    func summary(renderer: String) -> JSONValue {
        let query = "renderer=" + (renderer.addingPercentEncoding(withAllowedCharacters: .urlQueryValueAllowed) ?? renderer)
        var members: [String: JSONValue] = [
            "story": .string(story), "version": .integer(Int64(version)), "at": .string(ISO8601.string(from: at)),
        ]
        if content.image != nil { members["image"] = .string("/render/\(story).png?\(query)") }
        if content.text != nil { members["text"] = .string("/render/\(story).txt?\(query)") }
        if let error = content.error { members["error"] = .string(error) }
        return .object(members)
    }
}

extension CharacterSet {
    /// Characters that may stand unescaped in a query value.
    static let urlQueryValueAllowed = CharacterSet.urlQueryAllowed.subtracting(CharacterSet(charactersIn: "&=+#"))
}
