import PropsCatalog

/// One tool as `tools/list` describes it: a name, a title, a description written for a model and
/// the JSON Schema of its arguments.
struct MCPTool: Sendable {
    let name: String
    let title: String
    let description: String
    let properties: [String: JSONValue]
    let required: [String]
    /// Whether the tool changes nothing (MCP's `readOnlyHint`).
    var readOnly = true

    /// `{"name", "title", "description", "inputSchema", "annotations"}`.
    var json: JSONValue {
        [
            "name": .string(name), "title": .string(title), "description": .string(description),
            "inputSchema": [
                "type": "object", "properties": .object(properties),
                "required": .array(required.map(JSONValue.string)), "additionalProperties": false,
            ],
            "annotations": ["title": .string(title), "readOnlyHint": .bool(readOnly), "destructiveHint": false, "openWorldHint": false],
        ]
    }

    /// `{"type": "string", "description"}`.
    static func string(_ description: String) -> JSONValue {
        ["type": "string", "description": .string(description)]
    }

    /// `{"type": "integer", "description"}`.
    static func integer(_ description: String) -> JSONValue {
        ["type": "integer", "description": .string(description)]
    }

    static let storyArgument = string("A story id from list_stories, e.g. \"auth-login--empty\".")
}
