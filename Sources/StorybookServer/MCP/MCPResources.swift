import PropsCatalog
import StorybookTransport

/// Each story's live projections as MCP resources an agent can attach:
/// `storybook://story/{id}.txt` (text outline), `.html` (standalone document) and `.json` (state).
struct MCPResources {
    let hub: StoryHub
    let presence: PresenceBoard

    /// Resources per `resources/list` page (three per story).
    static let pageSize = 300

    private static let kinds: [(ext: String, mimeType: String, what: String)] = [
        ("txt", "text/plain", "text outline of the live view"),
        ("html", "text/html", "live view as a standalone HTML document"),
        ("json", "application/json", "live state: props, version, projections"),
    ]

    static let templates: [JSONValue] = kinds.map { kind in
        ["uriTemplate": .string("storybook://story/{id}.\(kind.ext)"), "name": .string("story-\(kind.ext)"),
         "title": .string("Story \(kind.what)"), "mimeType": .string(kind.mimeType),
         "description": .string("A story's \(kind.what); {id} is a story id from list_stories.")]
    }

    /// One page of every story's resources; `cursor` is the `nextCursor` of the page before.
    func list(cursor: String?) throws(JSONRPC.Failure) -> JSONValue {
        let start: Int
        if let cursor {
            guard let offset = Int(cursor), offset >= 0 else { throw JSONRPC.Failure(.invalidParams, "unknown cursor '\(cursor)'") }
            start = offset
        } else {
            start = 0
        }
        let stories = hub.catalog.stories
        let total = stories.count * Self.kinds.count
        let end = min(start + Self.pageSize, total)
        var resources: [JSONValue] = []
        if start < end {
            for index in start..<end {
                let story = stories[index / Self.kinds.count]
                let kind = Self.kinds[index % Self.kinds.count]
                resources.append([
                    "uri": .string("storybook://story/\(story.id).\(kind.ext)"),
                    "name": .string("\(story.id).\(kind.ext)"),
                    "title": .string("\(story.component.title) / \(story.name) (\(kind.ext))"),
                    "description": .string("The \(kind.what) of \(story.component.title) / \(story.name)."),
                    "mimeType": .string(kind.mimeType),
                ])
            }
        }
        var result: [String: JSONValue] = ["resources": .array(resources)]
        if end < total { result["nextCursor"] = .string(String(end)) }
        return .object(result)
    }

    /// The contents of one resource, rendered from the live state.
    func read(_ uri: String, client: MCPClient) throws(JSONRPC.Failure) -> JSONValue {
        let prefix = "storybook://story/"
        guard uri.hasPrefix(prefix), let dot = uri.lastIndex(of: "."), dot > uri.index(uri.startIndex, offsetBy: prefix.count) else {
            throw JSONRPC.Failure(.resourceNotFound, "no resource '\(uri)': use storybook://story/{id}.txt, .html or .json", data: ["uri": .string(uri)])
        }
        let id = String(uri[uri.index(uri.startIndex, offsetBy: prefix.count)..<dot])
        let ext = String(uri[uri.index(after: dot)...])
        guard let kind = Self.kinds.first(where: { $0.ext == ext }), case .success(let session) = hub.session(id) else {
            throw JSONRPC.Failure(.resourceNotFound, "no resource '\(uri)'", data: ["uri": .string(uri)])
        }
        presence.touch(agent: client.viewerID, name: client.name, story: id)
        let text: String
        switch kind.ext {
        case "txt": text = session.projections.text
        case "html": text = HTMLProjection.document(fragment: session.projections.html, title: "\(session.story.component.title) / \(session.story.name)")
        default: text = String(decoding: hub.liveStates.body(of: session), as: UTF8.self)
        }
        return ["contents": [["uri": .string(uri), "mimeType": .string(kind.mimeType), "text": .string(text)]]]
    }
}
