import PropsCatalog

extension EditorSchema {
    /// One line per field, `"/path: type"`, e.g. `"/email: string"`, `"/state: enum idle|loading"`,
    /// with the fields inside objects, optionals, union cases' payloads, lists and dictionaries
    /// (`*` standing for any index or key: `"/rows/*/id: string (uuid)"`): what a model needs to
    /// write valid props without reading the whole schema.
    var summaryLines: [String] {
        var lines: [String] = []
        summarize(at: "", into: &lines)
        return lines
    }

    private func summarize(at path: String, into lines: inout [String]) {
        // An object has no line of its own: its fields have theirs.
        if case .object = self {} else { lines.append("\(path.isEmpty ? "/" : path): \(typeName)") }
        summarizeMembers(at: path, into: &lines)
    }

    /// The lines of the fields inside a value of this schema at `path`.
    private func summarizeMembers(at path: String, into lines: inout [String]) {
        let child = { (token: String) in path + JSONPointer(tokens: [token]).description }
        switch self {
        case .object(_, let fields):
            for field in fields { field.schema.summarize(at: child(field.name), into: &lines) }
        case .optional(let wrapped):
            wrapped.summarizeMembers(at: path, into: &lines)
        case .union(_, let cases):
            for unionCase in cases {
                for field in unionCase.fields {
                    field.schema.summarize(at: child(unionCase.name) + JSONPointer(tokens: [field.name]).description, into: &lines)
                }
            }
        case .array(let items):
            items.summarizeMembers(at: child("*"), into: &lines)
        case .dictionary(let values):
            values.summarizeMembers(at: child("*"), into: &lines)
        default:
            break
        }
    }

    private var typeName: String {
        switch self {
        case .object(let name, _): "object \(name)"
        case .string(let format): format.map { "string (\($0.rawValue))" } ?? "string"
        case .integer: "integer"
        case .number: "number"
        case .boolean: "boolean"
        case .optional(let wrapped): "\(wrapped.typeName) or null"
        case .array(let items): "array of \(items.typeName)"
        case .dictionary(let values): "object of \(values.typeName)"
        case .enumeration(_, let values): "one of " + values.map { $0.serialized() }.joined(separator: "|")
        case .union(let name, let cases): "enum \(name), one member named by its case: " + cases.map(\.name).joined(separator: "|")
        case .command: "command (string)"
        case .unknown: "any JSON"
        }
    }
}
