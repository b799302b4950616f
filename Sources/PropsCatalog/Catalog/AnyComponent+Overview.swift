extension AnyComponent {
    /// The variant the overview's props table shows values of: the permutations' base, else the first.
    package var overviewBase: Variant? {
        permutationBase.flatMap { name in variants.first { $0.name == name && !$0.isGenerated } } ?? variants.first
    }

    /// What `GET /api/components/{id}/overview` answers: the description, the props table from the
    /// schema, every story with its settings and props, and the generated combinations left out.
    ///
    /// ```json
    /// {"id", "title", "propsType", "description": "..." | null, "base": "<story id>",
    ///  "props": [{"path", "field", "type", "values": [{"label", "json"}] | null, "base"}],
    ///  "stories": [{"id", "name", "props", ["saved"], ["generated", "settings"]}], "leftOut": [...]}
    /// ```
    package func overview() -> JSONValue {
        let schema = schema()
        let base = overviewBase
        let rows = base.map { PropsTable(schema: schema, base: $0.props, samples: variants.filter { !$0.isGenerated }.map(\.props)).rows() } ?? []
        return [
            "id": .string(id),
            "title": .string(title),
            "propsType": .string(propsType),
            "description": summary.map(JSONValue.string) ?? .null,
            "base": base.map { .string($0.id) } ?? .null,
            "props": .array(rows.map(\.json)),
            "stories": .array(variants.map { variant in
                guard case .object(var members) = variant.indexJSON else { return variant.indexJSON }
                members["props"] = variant.props
                return .object(members)
            }),
            "leftOut": .array(leftOut.map(\.json)),
        ]
    }
}

/// The overview's props table: one row per field of the base variant, with its type, the values it
/// may take when they are few (Bool, enum, union cases the variants show, nil) and the base's value.
struct PropsTable {
    struct Row {
        let path: JSONPointer
        let field: String
        let type: String
        let choices: [PermutationDimension.Value]?
        let base: JSONValue

        var json: JSONValue {
            [
                "path": .string(path.description), "field": .string(field), "type": .string(type), "base": base,
                "values": choices.map { .array($0.map { ["label": .string($0.label), "json": $0.json] }) } ?? .null,
            ]
        }
    }

    let schema: EditorSchema
    let base: JSONValue
    let samples: [JSONValue]

    func rows() -> [Row] {
        var rows: [Row] = []
        walk(schema, at: JSONPointer(), depth: 0, into: &rows)
        return rows
    }

    private var finder: DimensionFinder { DimensionFinder(schema: schema, base: base, samples: samples) }

    private func walk(_ schema: EditorSchema, at pointer: JSONPointer, depth: Int, into rows: inout [Row]) {
        guard let value = base.value(at: pointer), depth <= 6 else { return }
        switch schema {
        case .object(_, let fields) where !(value.objectValue?.isEmpty ?? true) || pointer.tokens.isEmpty:
            for field in fields { walk(field.schema, at: pointer.appending(field.name), depth: depth + 1, into: &rows) }
        case .union(_, let cases):
            rows.append(row(schema, at: pointer, value: value))
            guard case .object(let members) = value, members.count == 1, let caseName = members.keys.first,
                  let unionCase = cases.first(where: { $0.name == caseName }) else { return }
            for field in unionCase.fields {
                walk(field.schema, at: pointer.appending(caseName).appending(field.name), depth: depth + 1, into: &rows)
            }
        default:
            rows.append(row(schema, at: pointer, value: value))
        }
    }

    private func row(_ schema: EditorSchema, at pointer: JSONPointer, value: JSONValue) -> Row {
        let choices = finder.values(schema, at: pointer, base: value)
        return Row(path: pointer, field: pointer.tokens.isEmpty ? "(props)" : finder.name(of: pointer), type: schema.typeName,
                   choices: choices?.isEmpty == false ? choices : nil, base: value)
    }
}

extension EditorSchema {
    /// A short Swift-like name of the type: `Bool`, `String?`, `[Location]`, `SearchStatus`.
    var typeName: String {
        switch self {
        case .object(let name, _), .enumeration(let name, _), .union(let name, _): name
        case .string(let format): format.map { "String (\($0.rawValue))" } ?? "String"
        case .integer: "Int"
        case .number: "Double"
        case .boolean: "Bool"
        case .optional(let wrapped): wrapped.typeName + "?"
        case .array(let items): "[\(items.typeName)]"
        case .dictionary(let values): "[String: \(values.typeName)]"
        case .command: "Command"
        case .unknown: "unknown"
        }
    }
}
