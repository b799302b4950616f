import Foundation
import PropsCatalog
import StorybookReview
import StorybookTransport

/// The MCP tools: what an agent can read and do on the stories, through the same hub (validation,
/// journal, broadcast) as the browser. Errors come back as tool results with `isError` and the
/// contract's `{"code", "message", ["path"]}`, exactly as HTTP would answer them.
struct MCPTools {
    let hub: StoryHub
    let renders: RenderCache
    let presence: PresenceBoard
    /// `--snapshots`: the goldens `compare_goldens` compares with; nil hides that tool.
    let snapshotsDirectory: String?

    /// The most stories `list_stories` names in one answer.
    static let listLimit = 200

    static let instructions = """
        A storybook of UI components whose state is a Codable Props value. Each story is one component \
        state with a live, versioned session shared with the people in the browser: your edits are \
        validated by decoding into the Props type, recorded in the history under your client's name and \
        shown to every viewer at once. Start with list_stories, read a story with get_story or render_story \
        (format "text" is a compact outline of the rendered view), check props with validate_props before \
        edit_story, and undo your last change with undo.
        """

    var definitions: [MCPTool] {
        var tools = [
            MCPTool(name: "list_stories", title: "List stories",
                    description: "Lists the stories of the catalog: their ids (used by every other tool), component titles, variant names and Props type names. Give `query` to keep only stories whose id, title, name or Props type contains it (case-insensitive).",
                    properties: ["query": MCPTool.string("Optional words to search for, e.g. \"login\".")], required: []),
            MCPTool(name: "get_story", title: "Get a story",
                    description: "Reads a story's live state: its current props (JSON), version number, whether undo/redo are possible, a summary of the Props type's fields (JSON Pointer path and type per line), the Props type's name, and declaredAt: the source file and line (e.g. \"DemoCatalog/LoginComponent.swift:36\") where the component was registered, the place to look for its render function and Props type (the type's own declaration is not known at run time). Use it before editing to see the exact shape the props must have.",
                    properties: ["story": MCPTool.storyArgument], required: ["story"]),
            MCPTool(name: "render_story", title: "Render a story",
                    description: "Renders a story without changing it. format \"text\" (default) is an indented outline of the view, one element per line, ideal to read; \"a11y\" is what a screen reader announces, one element per line in reading order (role, accessible name, value, state); \"html\" is a standalone HTML document. `environment` renders it as a user with those settings sees it (colorScheme light|dark, dynamicType xSmall...accessibility5, locale e.g. de-DE, layoutDirection ltr|rtl, width in points). source \"live\" (default) renders the current shared state, \"registered\" the variant as registered in code. Give `props` to render those props for the story's component instead (they are validated, nothing is stored).",
                    properties: [
                        "story": MCPTool.storyArgument,
                        "format": ["type": "string", "enum": ["text", "a11y", "html"], "description": "text (default), a11y (the accessibility outline) or html."],
                        "environment": [
                            "type": "object", "description": "Optional: colorScheme, dynamicType, locale, layoutDirection, width (strings), as the render routes' query parameters.",
                            "additionalProperties": ["type": "string"],
                        ],
                        "source": ["type": "string", "enum": ["live", "registered"], "description": "live (default) or registered."],
                        "props": ["type": "object", "description": "Optional props to render instead of the story's own."],
                    ], required: ["story"]),
            MCPTool(name: "validate_props", title: "Validate props",
                    description: "Checks whether `props` decode into a component's Props type, without changing anything. Name the component directly or through one of its stories. Answers valid: true with the canonical props, or valid: false with the error's code, message and the JSON Pointer `path` of the field at fault (e.g. \"/email\"). Fix that field and validate again before edit_story.",
                    properties: [
                        "story": MCPTool.string("A story id; its component's Props type is used."),
                        "component": MCPTool.string("A component id (the part of a story id before \"--\"), instead of story."),
                        "props": ["type": "object", "description": "The whole props value to check."],
                    ], required: ["props"]),
            MCPTool(name: "edit_story", title: "Edit a story",
                    description: "Changes a story's live props for everyone viewing it: either `props` (the whole new value) or `patch` (an RFC 6902 JSON Patch of the live props, e.g. [{\"op\": \"replace\", \"path\": \"/name\", \"value\": \"Grace\"}]). Give `base` (the version you read) to refuse the edit if someone changed the story since. Invalid props change nothing and return the error with its field path. Answers the new version.",
                    properties: [
                        "story": MCPTool.storyArgument,
                        "props": ["type": "object", "description": "The whole new props value (instead of patch)."],
                        "patch": ["type": "array", "items": ["type": "object"], "description": "RFC 6902 operations on the live props (instead of props)."],
                        "base": MCPTool.integer("Optional: the version the edit is based on; a different live version refuses it with code conflict."),
                    ], required: ["story"], readOnly: false),
            MCPTool(name: "dispatch_command", title: "Use a command",
                    description: "Uses a command of the story's view as a person would (a button's command such as \"login\", or a field's command with the typed text as `payload`). Viewers see the action; when the component derives new props from it, they become the next version.",
                    properties: [
                        "story": MCPTool.storyArgument,
                        "command": MCPTool.string("The command's name as it appears in the rendered view, e.g. \"login\"."),
                        "payload": ["description": "Optional value that comes with the command, e.g. typed text."],
                    ], required: ["story", "command"], readOnly: false),
            MCPTool(name: "undo", title: "Undo",
                    description: "Undoes the story's last change (whoever made it; a person's run of typing in one field is one change) by making the state before it live as a new version. Fails with code conflict when there is nothing to undo, or when `base` is given and is not the live version.",
                    properties: ["story": MCPTool.storyArgument, "base": MCPTool.integer("Optional: the version whose change to undo; a different live version refuses it with code conflict.")],
                    required: ["story"], readOnly: false),
            MCPTool(name: "redo", title: "Redo",
                    description: "Makes the state the last undo went back from live again, as a new version. Fails with code conflict when `base` is given and is not the live version.",
                    properties: ["story": MCPTool.storyArgument, "base": MCPTool.integer("Optional: the live version the redo is meant for; a different live version refuses it with code conflict.")],
                    required: ["story"], readOnly: false),
            MCPTool(name: "read_history", title: "Read history",
                    description: "Lists a story's recorded changes, oldest first: version, time, kind, who made it (source and author) and the JSON Patch from the version before. Give `since` to get only the versions after it.",
                    properties: ["story": MCPTool.storyArgument, "since": MCPTool.integer("Optional: only versions newer than this.")],
                    required: ["story"]),
        ]
        if snapshotsDirectory != nil {
            tools.append(MCPTool(name: "compare_goldens", title: "Compare with goldens",
                                 description: "Compares every story's registered projections with the golden files the server was started with (--snapshots): the counts, and for each changed, new or removed story its status and unified diff.",
                                 properties: [:], required: []))
        }
        return tools
    }

    /// Runs a tool. An unknown tool is a protocol error; everything else, including bad arguments,
    /// is a tool result the model can read and act on.
    func call(_ name: String, arguments: JSONValue, client: MCPClient) throws(JSONRPC.Failure) -> JSONValue {
        guard definitions.contains(where: { $0.name == name }) else {
            throw JSONRPC.Failure(.invalidParams, "unknown tool '\(name)'")
        }
        let reader = FieldReader(fields: arguments.objectValue ?? [:])
        do throws(APIError) {
            let (text, structured) = try run(name, reader: reader, client: client)
            return ["content": [["type": "text", "text": .string(text)]], "structuredContent": structured, "isError": false]
        } catch {
            let path = error.path.map { " at \($0)" } ?? ""
            return [
                "content": [["type": "text", "text": .string("\(error.code): \(error.message)\(path)")]],
                "structuredContent": ["error": error.json], "isError": true,
            ]
        }
    }

    private func run(_ name: String, reader: FieldReader, client: MCPClient) throws(APIError) -> (String, JSONValue) {
        switch name {
        case "list_stories":
            return list(query: try reader.optionalString("query"))
        case "get_story":
            let session = try session(reader, client: client)
            let component = session.story.component
            let summary = component.schema().summaryLines
            let text = "\(session.story.id) version \(session.version) (\(component.propsType), component registered at \(component.declaredAt))\n"
                + "props: \(session.props.serialized())\nfields:\n"
                + summary.map { "  " + $0 }.joined(separator: "\n")
            return (text, [
                "id": .string(session.story.id), "component": .string(component.id),
                "title": .string(component.title), "name": .string(session.story.name),
                "propsType": .string(component.propsType), "declaredAt": .string(component.declaredAt),
                "version": .integer(Int64(session.version)),
                "props": session.props, "canUndo": .bool(session.canUndo), "canRedo": .bool(session.canRedo),
                "fields": .array(summary.map(JSONValue.string)),
            ])
        case "render_story":
            return try render(reader, client: client)
        case "validate_props":
            return try validate(reader)
        case "edit_story":
            let story = try reader.string("story")
            let base = try reader.optionalVersion("base")
            let edit: Edit
            var focus: String?
            switch (reader.fields["props"], reader.fields["patch"]) {
            case (let props?, nil):
                edit = .replace(props)
            case (nil, let operations?):
                edit = .patch(try reader.patch("patch"))
                focus = operations.arrayValue?.first?["path"]?.stringValue
            default:
                throw APIError(.badMessage, "give either props (the whole value) or patch (JSON Patch operations)", path: "/props")
            }
            visit(story, client: client, focus: focus)
            return changed(try hub.apply(edit, to: story, base: base, source: client.source).get())
        case "dispatch_command":
            let story = try reader.string("story")
            let invocation = CommandInvocation(Command(try reader.string("command")), payload: reader.fields["payload"])
            visit(story, client: client)
            return changed(try hub.dispatch(invocation, to: story, source: client.source).get())
        case "undo", "redo":
            let story = try reader.string("story")
            let base = try reader.optionalVersion("base")
            visit(story, client: client)
            return changed(try hub.apply(name == "undo" ? .undo : .redo, to: story, base: base, source: client.source).get())
        case "read_history":
            let session = try session(reader, client: client)
            let history = HistoryMessage.json(session, since: try reader.optionalVersion("since"))
            let lines = (history["entries"]?.arrayValue ?? []).map { entry in
                let who = entry["author"]?["name"]?.stringValue.map { " by \($0)" } ?? ""
                return "v\(entry["version"]?.integerValue ?? 0) \(entry["kind"]?.stringValue ?? "") from \(entry["source"]?.stringValue ?? "")\(who): \(entry["patch"]?.serialized() ?? "[]")"
            }
            return (lines.joined(separator: "\n"), history)
        case "compare_goldens":
            guard let snapshotsDirectory else { throw APIError(.notFound, "no goldens: start the server with --snapshots DIR") }
            let report = try ReviewRoute(catalog: hub.catalog, directory: snapshotsDirectory, allowRecord: false).report(snapshotsDirectory).get()
            let stories = report["stories"]?.arrayValue ?? []
            let text = ([report["summary"]?.stringValue ?? ""] + stories.map { story in
                "\(story["id"]?.stringValue ?? "") \(story["status"]?.stringValue ?? "")\n\(story["diff"]?.stringValue ?? "")"
            }).joined(separator: "\n")
            return (text, report)
        default:
            throw APIError(.notFound, "unknown tool '\(name)'")
        }
    }

    private func list(query: String?) -> (String, JSONValue) {
        let needle = query?.lowercased().trimmingCharacters(in: .whitespaces) ?? ""
        let matching = hub.catalog.stories.filter { story in
            needle.isEmpty || [story.id, story.name, story.component.title, story.component.propsType]
                .contains { $0.lowercased().contains(needle) }
        }
        let shown = matching.prefix(Self.listLimit)
        var lines = shown.map { "\($0.id)  \($0.component.title) / \($0.name)  (\($0.component.propsType))" }
        if matching.count > shown.count {
            lines.append("... and \(matching.count - shown.count) more: narrow the query")
        }
        if matching.isEmpty { lines.append("no story matches '\(query ?? "")'") }
        let stories: [JSONValue] = shown.map { story in
            ["id": .string(story.id), "component": .string(story.component.id), "title": .string(story.component.title),
             "name": .string(story.name), "propsType": .string(story.component.propsType)]
        }
        return (lines.joined(separator: "\n"), ["stories": .array(stories), "total": .integer(Int64(matching.count))])
    }

    private func render(_ reader: FieldReader, client: MCPClient) throws(APIError) -> (String, JSONValue) {
        let story = try reader.string("story")
        let formatName = try reader.optionalString("format") ?? "text"
        let source = try reader.optionalString("source") ?? "live"
        guard let format = ProjectionFormat(rawValue: formatName) else { throw APIError(.badMessage, "format is text, a11y or html", path: "/format") }
        guard source == "live" || source == "registered" else { throw APIError(.badMessage, "source is live or registered", path: "/source") }
        let environment = try Self.environment(reader.fields["environment"])
        let body: String
        var version: JSONValue = .null
        if let props = reader.fields["props"] {
            guard let component = hub.catalog.story(id: story)?.component else { throw APIError(.notFound, "unknown story '\(story)'") }
            let validated = try component.validate(props, in: environment).mapError(APIError.init).get()
            body = RenderedStory(view: validated.view, title: component.title, auditLevel: component.auditLevel, environment: environment).body(format)
        } else if source == "registered" {
            guard let registered = hub.catalog.story(id: story), let rendered = try? RenderedStory(registered, environment: environment) else {
                throw APIError(.notFound, "unknown story '\(story)'")
            }
            body = rendered.body(format)
        } else {
            let session = try hub.session(story).get()
            version = .integer(Int64(session.version))
            let projections = session.projections(in: environment)
            switch format {
            case .text: body = projections.text
            case .a11y: body = projections.accessibility
            case .html: body = HTMLProjection.document(fragment: projections.html, title: session.documentTitle, environment: environment)
            }
        }
        visit(story, client: client)
        return (body, ["story": .string(story), "format": .string(formatName), "source": .string(source), "version": version, "body": .string(body)])
    }

    /// The environment an `environment` argument names (the render routes' query parameters).
    private static func environment(_ value: JSONValue?) throws(APIError) -> ViewEnvironment {
        guard let value, value != .null else { return .standard }
        guard case .object(let members) = value else { throw APIError(.badMessage, "environment is an object of strings", path: "/environment") }
        var parameters: [String: String] = [:]
        for (name, member) in members {
            switch member {
            case .string(let text): parameters[name] = text
            case .integer(let number): parameters[name] = String(number)
            default: throw APIError(.badMessage, "environment values are strings", path: "/environment/\(name)")
            }
        }
        do throws(EnvironmentError) {
            return try ViewEnvironment(parameters: parameters)
        } catch {
            throw APIError(error)
        }
    }

    private func validate(_ reader: FieldReader) throws(APIError) -> (String, JSONValue) {
        guard let props = reader.fields["props"] else { throw APIError(.badMessage, "missing field props", path: "/props") }
        let component: AnyComponent
        if let story = try reader.optionalString("story") {
            guard let found = hub.catalog.story(id: story)?.component else { throw APIError(.notFound, "unknown story '\(story)'") }
            component = found
        } else if let id = try reader.optionalString("component") {
            guard let found = hub.catalog.component(id: id) else { throw APIError(.notFound, "unknown component '\(id)'") }
            component = found
        } else {
            throw APIError(.badMessage, "name the Props type by story or component", path: "/story")
        }
        switch component.validate(props) {
        case .success(let validated):
            return ("valid \(component.propsType)", ["valid": true, "props": validated.props])
        case .failure(let failure):
            let error = APIError(failure)
            return ("invalid: \(error.code) at \(error.path ?? "/"): \(error.message)", ["valid": false, "errors": [error.json]])
        }
    }

    private func session(_ reader: FieldReader, client: MCPClient) throws(APIError) -> StorySession {
        let story = try reader.string("story")
        let session = try hub.session(story).get()
        visit(story, client: client)
        return session
    }

    /// Lists the client as an agent viewer of a story that exists.
    private func visit(_ story: String, client: MCPClient, focus: String? = nil) {
        guard hub.catalog.story(id: story) != nil else { return }
        presence.touch(agent: client.viewerID, name: client.name, story: story, focus: focus)
    }

    private func changed(_ session: StorySession) -> (String, JSONValue) {
        ("\(session.story.id) is now version \(session.version)\n\(session.projections.text)", [
            "story": .string(session.story.id), "version": .integer(Int64(session.version)), "props": session.props,
            "canUndo": .bool(session.canUndo), "canRedo": .bool(session.canRedo),
        ])
    }
}
