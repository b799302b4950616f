/// What the browser needs to build editing controls for a Props type: the shape of its JSON.
///
/// Inferred at run time from the Props type and its variants (`EditorSchema.infer`), so component
/// authors write nothing extra; `json` is the wire format described in `docs/schema.md`.
package indirect enum EditorSchema: Sendable, Equatable {
    /// A struct (or any keyed type): its fields in declaration (decode) order.
    case object(name: String, fields: [Field])
    /// A string, optionally with a format that picks a better control.
    case string(format: StringFormat? = nil)
    /// Any Swift integer type.
    case integer
    /// `Double`, `Float`, `Decimal`.
    case number
    case boolean
    /// A value that may be `null`.
    case optional(wrapped: EditorSchema)
    /// `[X]` (and `Set<X>`).
    case array(items: EditorSchema)
    /// `[String: X]`.
    case dictionary(values: EditorSchema)
    /// A `CaseIterable` raw-value enum; `values` are the raw JSON values (strings or integers).
    case enumeration(name: String, values: [JSONValue])
    /// An enum with associated values, in Swift's synthesized form `{"case": {"label": value}}`.
    /// Only the cases seen in some sample are known.
    case union(name: String, cases: [UnionCase])
    /// The `Command` type: a JSON string naming a command.
    case command
    /// What inference could not learn.
    case unknown

    /// One field of an object, or one payload value of a union case (`_0` when unlabelled).
    package struct Field: Sendable, Equatable {
        package var name: String
        package var schema: EditorSchema
        /// Set by the `.readOnly` hint: the browser shows the value without an editing control.
        package var isReadOnly: Bool

        package init(name: String, schema: EditorSchema, isReadOnly: Bool = false) {
            self.name = name
            self.schema = schema
            self.isReadOnly = isReadOnly
        }
    }

    /// One case of a union, with its payload fields (empty for a case without payload).
    package struct UnionCase: Sendable, Equatable {
        package var name: String
        package var fields: [Field]
        /// A value of this case from a variant (the component's, or an embedded child's), for
        /// the browser to start from when the case is picked.
        package var example: JSONValue?

        package init(name: String, fields: [Field], example: JSONValue? = nil) {
            self.name = name
            self.fields = fields
            self.example = example
        }
    }

    /// How a string is edited: the `format` member of a string schema.
    package enum StringFormat: String, Sendable, Equatable, CaseIterable {
        /// A text area instead of a single-line field (hint).
        case multiline
        /// A colour picker (hint).
        case color
        /// `Date`: an ISO 8601 date-time such as `2026-11-22T10:00:00Z`.
        case dateTime = "date-time"
        /// `URL`: an absolute URL string.
        case url
        /// `UUID`: an uppercase UUID string.
        case uuid
    }
}


// MARK: - Wire format

extension EditorSchema {
    /// The schema as the browser receives it, e.g. `{"type":"optional","wrapped":{"type":"string"}}`.
    package var json: JSONValue {
        switch self {
        case .object(let name, let fields):
            return ["type": "object", "name": .string(name), "fields": .array(fields.map(\.json))]
        case .string(let format):
            guard let format else { return ["type": "string"] }
            return ["type": "string", "format": .string(format.rawValue)]
        case .integer:
            return ["type": "integer"]
        case .number:
            return ["type": "number"]
        case .boolean:
            return ["type": "boolean"]
        case .optional(let wrapped):
            return ["type": "optional", "wrapped": wrapped.json]
        case .array(let items):
            return ["type": "array", "items": items.json]
        case .dictionary(let values):
            return ["type": "dictionary", "values": values.json]
        case .enumeration(let name, let values):
            return ["type": "enum", "name": .string(name), "values": .array(values)]
        case .union(let name, let cases):
            return ["type": "union", "name": .string(name), "cases": .array(cases.map(\.json))]
        case .command:
            return ["type": "command"]
        case .unknown:
            return ["type": "unknown"]
        }
    }
}

extension EditorSchema.Field {
    /// `{"name": ..., "schema": ...}`, plus `"readOnly": true` when set.
    package var json: JSONValue {
        var members: [String: JSONValue] = ["name": .string(name), "schema": schema.json]
        if isReadOnly { members["readOnly"] = true }
        return .object(members)
    }
}

extension EditorSchema.UnionCase {
    /// `{"name": ..., "fields": [...]}`, plus `"example"` when a variant shows the case.
    package var json: JSONValue {
        var members: [String: JSONValue] = ["name": .string(name), "fields": .array(fields.map(\.json))]
        if let example { members["example"] = example }
        return .object(members)
    }
}

// MARK: - Building and merging

extension EditorSchema {
    /// `optional(wrapped:)` that never nests: JSON has one `null`, so `X??` is edited like `X?`.
    static func nullable(_ wrapped: EditorSchema) -> EditorSchema {
        if case .optional = wrapped { return wrapped }
        return .optional(wrapped: wrapped)
    }

    /// One schema covering both: what two samples (or two places of one type) taught together.
    ///
    /// `unknown` gives way to anything; optional wins over non-optional; objects and union cases
    /// are merged field by field (first-seen order, new ones appended); enum values and union cases
    /// are united. Two different kinds cannot be one editor: that gives `unknown`.
    static func merge(_ first: EditorSchema, _ second: EditorSchema) -> EditorSchema {
        switch (first, second) {
        case (.unknown, _):
            return second
        case (_, .unknown):
            return first
        case (.optional(let a), .optional(let b)):
            return .nullable(merge(a, b))
        case (.optional(let a), _):
            return .nullable(merge(a, second))
        case (_, .optional(let b)):
            return .nullable(merge(first, b))
        case (.string(let a), .string(let b)):
            return .string(format: a ?? b)
        case (.integer, .integer):
            return .integer
        case (.number, .number), (.integer, .number), (.number, .integer):
            return .number
        case (.boolean, .boolean):
            return .boolean
        case (.command, .command):
            return .command
        case (.array(let a), .array(let b)):
            return .array(items: merge(a, b))
        case (.dictionary(let a), .dictionary(let b)):
            return .dictionary(values: merge(a, b))
        case (.enumeration(let name, let a), .enumeration(_, let b)):
            return .enumeration(name: name, values: a + b.filter { !a.contains($0) })
        case (.object(let name, let a), .object(_, let b)):
            return .object(name: name, fields: mergeFields(a, b))
        case (.union(let name, let a), .union(_, let b)):
            var cases = a
            for other in b {
                if let index = cases.firstIndex(where: { $0.name == other.name }) {
                    cases[index].fields = mergeFields(cases[index].fields, other.fields)
                    cases[index].example = cases[index].example ?? other.example
                } else {
                    cases.append(other)
                }
            }
            return .union(name: name, cases: cases)
        default:
            return .unknown
        }
    }

    static func mergeFields(_ a: [Field], _ b: [Field]) -> [Field] {
        var fields = a
        for other in b {
            if let index = fields.firstIndex(where: { $0.name == other.name }) {
                fields[index].schema = merge(fields[index].schema, other.schema)
                fields[index].isReadOnly = fields[index].isReadOnly || other.isReadOnly
            } else {
                fields.append(other)
            }
        }
        return fields
    }
}

// MARK: - Paths and hints

extension EditorSchema {
    /// The schema with `hints` applied; hints whose path names nothing suitable are ignored
    /// (`unmatchedHints(_:)` lists them).
    ///
    /// A path is a JSON Pointer over the schema: object field names, union case names followed by
    /// payload field names (`/input/_0/username`), and `*` for any array element or dictionary
    /// value (`/locations/*/name`). Optionals are transparent. `.multiline` and `.color` set the
    /// format of the string at the path; `.readOnly` marks the object field or payload field at it.
    package func applying(_ hints: [String: FieldHint]) -> EditorSchema {
        var result = self
        for path in hints.keys.sorted() {
            guard let pointer = try? JSONPointer(parsing: path) else { continue }
            if let applied = result.applying(hints[path]!, at: pointer.tokens[...]) { result = applied }
        }
        return result
    }

    /// The hint paths (sorted) that do not name a string (for formats) or a field (for `.readOnly`).
    package func unmatchedHints(_ hints: [String: FieldHint]) -> [String] {
        hints.keys.sorted().filter { path in
            guard let pointer = try? JSONPointer(parsing: path) else { return true }
            return applying(hints[path]!, at: pointer.tokens[...]) == nil
        }
    }

    /// The schema of the value at `pointer`: a schema path (`/locations/*/name`) or a pointer into
    /// a Props value (`/locations/2/name`), where any token selects an array element or dictionary
    /// value. Optionals on the way are looked through; the result itself may be `optional`.
    package func schema(at pointer: JSONPointer) -> EditorSchema? {
        descend(pointer)?.schema
    }

    /// The schema path of a place in a Props value: array indices and dictionary keys become `*`,
    /// field and union case names stay (`/lines/2/note` -> `/lines/*/note`); nil when the schema has
    /// no such place.
    package func schemaPath(of pointer: JSONPointer) -> JSONPointer? {
        descend(pointer).map { JSONPointer(tokens: $0.path) }
    }

    /// Follows `pointer` down the schema (see `schema(at:)`): the schema reached and its schema path.
    private func descend(_ pointer: JSONPointer) -> (schema: EditorSchema, path: [String])? {
        var current = self
        var tokens = pointer.tokens[...]
        var path: [String] = []
        while let token = tokens.first {
            switch current {
            case .optional(let wrapped):
                current = wrapped
                continue
            case .object(_, let fields):
                guard let field = fields.first(where: { $0.name == token }) else { return nil }
                path.append(token)
                current = field.schema
            case .array(let items):
                guard token == "*" || JSONPointer.arrayIndex(token) != nil else { return nil }
                path.append("*")
                current = items
            case .dictionary(let values):
                path.append("*")
                current = values
            case .union(_, let cases):
                guard let unionCase = cases.first(where: { $0.name == token }) else { return nil }
                path.append(token)
                tokens = tokens.dropFirst()
                guard let fieldName = tokens.first else { return (.object(name: token, fields: unionCase.fields), path) }
                guard let field = unionCase.fields.first(where: { $0.name == fieldName }) else { return nil }
                path.append(fieldName)
                current = field.schema
            default:
                return nil
            }
            tokens = tokens.dropFirst()
        }
        return (current, path)
    }

    /// `schema(at:)` for a path given as text; nil when the text is not a JSON Pointer.
    package func schema(at path: String) -> EditorSchema? {
        guard let pointer = try? JSONPointer(parsing: path) else { return nil }
        return schema(at: pointer)
    }

    /// `self` with `hint` applied at `tokens`, or nil when the path names nothing it applies to.
    private func applying(_ hint: FieldHint, at tokens: ArraySlice<String>) -> EditorSchema? {
        if case .optional(let wrapped) = self {
            return wrapped.applying(hint, at: tokens).map { .optional(wrapped: $0) }
        }
        guard let token = tokens.first else {
            guard case .string = self else { return nil }
            switch hint {
            case .multiline: return .string(format: .multiline)
            case .color: return .string(format: .color)
            case .readOnly: return nil
            }
        }
        let rest = tokens.dropFirst()
        switch self {
        case .object(let name, var fields):
            guard Self.applying(hint, toField: token, in: &fields, rest: rest) else { return nil }
            return .object(name: name, fields: fields)
        case .union(let name, var cases):
            guard let caseIndex = cases.firstIndex(where: { $0.name == token }), let fieldName = rest.first else { return nil }
            guard Self.applying(hint, toField: fieldName, in: &cases[caseIndex].fields, rest: rest.dropFirst()) else { return nil }
            return .union(name: name, cases: cases)
        case .array(let items) where token == "*":
            return items.applying(hint, at: rest).map { .array(items: $0) }
        case .dictionary(let values) where token == "*":
            return values.applying(hint, at: rest).map { .dictionary(values: $0) }
        default:
            return nil
        }
    }

    /// Applies `hint` to the field named `name` (or below it); false when the path names nothing suitable.
    private static func applying(_ hint: FieldHint, toField name: String, in fields: inout [Field], rest: ArraySlice<String>) -> Bool {
        guard let index = fields.firstIndex(where: { $0.name == name }) else { return false }
        if rest.isEmpty, hint == .readOnly {
            fields[index].isReadOnly = true
            return true
        }
        guard let schema = fields[index].schema.applying(hint, at: rest) else { return false }
        fields[index].schema = schema
        return true
    }
}
