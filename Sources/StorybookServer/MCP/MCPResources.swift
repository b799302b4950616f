import PropsCatalog
import StorybookTransport

/// Each story's live projections as MCP resources an agent can attach:
/// `storybook://story/{id}.txt` (text outline), `.a11y.txt` (accessibility outline), `.html`
/// (standalone document) and `.json` (state).
struct MCPResources {
    let hub: StoryHub
    let presence: PresenceBoard

    /// Resources per `resources/list` page (four per story).
    static let pageSize = 300

    /// A projection offered for every story: its URI's extension, MIME type and a few words for the model.
    private typealias Kind = (ext: String, mimeType: String, what: String)

    /// Longest extension first, so that `{id}.a11y.txt` is read as the accessibility outline of `{id}`.
    private static let kinds: [Kind] = [
        ("a11y.txt", "text/plain", "accessibility outline of the live view (what a screen reader announces)"),
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
        guard let (id, kind) = Self.parse(uri), case .success(let session) = hub.session(id) else {
            throw JSONRPC.Failure(.resourceNotFound, "no resource '\(uri)': use storybook://story/{id}.\(Self.kinds.map(\.ext).joined(separator: ", .")) with a story id from list_stories",
                                  data: ["uri": .string(uri)])
        }
        presence.touch(agent: client.viewerID, name: client.name, story: id)
        let text: String
        switch kind.ext {
        case "txt": text = session.projections.text
        case "a11y.txt": text = session.projections.accessibility
        case "html": text = HTMLProjection.document(fragment: session.projections.html, title: "\(session.story.component.title) / \(session.story.name)")
        default: text = String(decoding: hub.liveStates.body(of: session), as: UTF8.self)
        }
        return ["contents": [["uri": .string(uri), "mimeType": .string(kind.mimeType), "text": .string(text)]]]
    }

    /// The story id and kind a resource URI names. Extensions are matched whole, longest first, so
    /// `{id}.a11y.txt` is the accessibility outline of `{id}`, not the text outline of `{id}.a11y`.
    private static func parse(_ uri: String) -> (id: String, kind: Kind)? {
        let prefix = "storybook://story/"
        guard uri.hasPrefix(prefix) else { return nil }
        let name = uri.dropFirst(prefix.count)
        for kind in kinds where name.hasSuffix("." + kind.ext) {
            let id = name.dropLast(kind.ext.count + 1)
            return id.isEmpty ? nil : (String(id), kind)
        }
        return nil
    }
}
