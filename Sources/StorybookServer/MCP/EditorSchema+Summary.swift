import PropsCatalog

extension EditorSchema {
    /// One line per leaf field, `"/path: type"`, e.g. `"/email: string"`, `"/state: enum idle|loading"`:
    /// what a model needs to write valid props without reading the whole schema.
    var summaryLines: [String] {
        var lines: [String] = []
        summarize(at: "", into: &lines)
        return lines
    }

    private func summarize(at path: String, into lines: inout [String]) {
        switch self {
        case .object(_, let fields):
            for field in fields {
                field.schema.summarize(at: path + JSONPointer(tokens: [field.name]).description, into: &lines)
            }
        case .optional(let wrapped):
            if case .object = wrapped {
                lines.append("\(path.isEmpty ? "/" : path): object or null")
                wrapped.summarize(at: path, into: &lines)
            } else {
                lines.append("\(path.isEmpty ? "/" : path): \(wrapped.typeName) or null")
            }
        case .union(_, let cases):
            lines.append("\(path.isEmpty ? "/" : path): \(typeName)")
            for unionCase in cases {
                let casePath = path + JSONPointer(tokens: [unionCase.name]).description
                for field in unionCase.fields {
                    field.schema.summarize(at: casePath + JSONPointer(tokens: [field.name]).description, into: &lines)
                }
            }
        case .array(let items):
            lines.append("\(path.isEmpty ? "/" : path): array of \(items.typeName)")
            if case .object = items { items.summarize(at: path + "/0", into: &lines) }
        default:
            lines.append("\(path.isEmpty ? "/" : path): \(typeName)")
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
