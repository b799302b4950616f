/// Finds the dimensions of a component's generated stories from its editor schema, its base
/// variant and its other variants (which show the union cases and their payloads).
struct DimensionFinder {
    let schema: EditorSchema
    let base: JSONValue
    /// Every registered variant's props, in registration order.
    let samples: [JSONValue]

    /// The dimensions `spec` asks for, in order: inferred (or named in `over`) first, then the
    /// hand-given ones not among them. Throws a message when a path names nothing usable.
    func dimensions(_ spec: PermutationSpec) throws(PermutationError) -> [PermutationDimension] {
        var found: [PermutationDimension] = []
        if let over = spec.over {
            for path in over {
                let pointer = try Self.pointer(path)
                if spec.values.contains(where: { $0.path == path }) { continue }
                guard let fieldSchema = schema.schema(at: pointer), base.value(at: pointer) != nil else {
                    throw PermutationError("the dimension '\(path)' names no field of the base variant")
                }
                guard let dimension = dimension(fieldSchema, at: pointer) else {
                    throw PermutationError("the dimension '\(path)' is not a Bool, an enum, an optional or a union: give it values with .values(\"\(path)\", [...])")
                }
                found.append(dimension)
            }
        } else {
            walk(schema, at: JSONPointer(), into: &found)
        }
        for hand in spec.values {
            let pointer = try Self.pointer(hand.path)
            guard let baseValue = base.value(at: pointer) else {
                throw PermutationError("the values for '\(hand.path)' name no field of the base variant")
            }
            var values = hand.values.enumerated().map { position, value in
                let label = value.label ?? PermutationDimension.label(of: value.json, position: position + 1)
                let isScalar = value.json.arrayValue == nil && value.json.objectValue == nil
                return PermutationDimension.Value(label: label, setting: value.label == nil && isScalar ? value.json : .string(label), json: value.json)
            }
            var baseIndex = values.firstIndex { $0.json.jsonEquals(baseValue) }
            if baseIndex == nil {
                values.insert(.init(label: "base", setting: "base", json: baseValue), at: 0)
                baseIndex = 0
            }
            let dimension = PermutationDimension(pointer: pointer, name: name(of: pointer), values: values, baseIndex: baseIndex!)
            if let index = found.firstIndex(where: { $0.pointer == pointer }) {
                found[index] = dimension
            } else if let over = spec.over, let position = over.firstIndex(of: hand.path) {
                let before = over[..<position].compactMap { try? JSONPointer(parsing: $0) }
                let index = found.lastIndex { before.contains($0.pointer) }.map { $0 + 1 } ?? 0
                found.insert(dimension, at: index)
            } else {
                found.append(dimension)
            }
        }
        var names: [String: Int] = [:]
        for dimension in found { names[dimension.name, default: 0] += 1 }
        for index in found.indices where names[found[index].name]! > 1 {
            found[index].name = found[index].pointer.tokens.joined(separator: ".")
        }
        return found
    }

    /// The readable name of a dimension: the path's field names, without a union's case name and
    /// its `_0`-style payload positions (`/input/_0/status` -> `status`, `/home/street` -> `home.street`).
    func name(of pointer: JSONPointer) -> String {
        var names: [String] = []
        var current: EditorSchema? = schema
        var tokens = pointer.tokens[...]
        while let token = tokens.popFirst() {
            if case .optional(let wrapped)? = current { current = wrapped }
            if case .union(_, let cases)? = current, let unionCase = cases.first(where: { $0.name == token }) {
                guard let field = tokens.popFirst() else { names.append(token); break }
                if !PermutationDimension.isPosition(field) { names.append(field) }
                current = unionCase.fields.first { $0.name == field }?.schema
                continue
            }
            names.append(token)
            current = current?.schema(at: JSONPointer(tokens: [token]))
        }
        return names.isEmpty ? pointer.tokens.joined(separator: ".") : names.joined(separator: ".")
    }

    private static func pointer(_ path: String) throws(PermutationError) -> JSONPointer {
        do {
            return try JSONPointer(parsing: path)
        } catch {
            throw PermutationError("'\(path)' is not a JSON Pointer: \(error.reason)")
        }
    }

    /// Every dimension under `pointer`: the fields of objects, the payload of the base's case of a
    /// union at the root; optionals, enums, booleans and other unions are dimensions themselves.
    private func walk(_ schema: EditorSchema, at pointer: JSONPointer, into found: inout [PermutationDimension]) {
        switch schema {
        case .object(_, let fields):
            for field in fields { walk(field.schema, at: pointer.appending(field.name), into: &found) }
        case .union(_, let cases) where pointer.tokens.isEmpty:
            guard case .object(let members)? = base.value(at: pointer), members.count == 1, let caseName = members.keys.first,
                  let unionCase = cases.first(where: { $0.name == caseName }) else { return }
            for field in unionCase.fields { walk(field.schema, at: pointer.appending(caseName).appending(field.name), into: &found) }
        default:
            if base.value(at: pointer) != nil, let dimension = dimension(schema, at: pointer) { found.append(dimension) }
        }
    }

    /// The dimension of a Bool, an enum, an optional or a union at `pointer`; nil for other kinds.
    private func dimension(_ schema: EditorSchema, at pointer: JSONPointer) -> PermutationDimension? {
        guard let baseValue = base.value(at: pointer), let values = values(schema, at: pointer, base: baseValue), values.count > 1,
              let baseIndex = values.firstIndex(where: { $0.json.jsonEquals(baseValue) }) else { return nil }
        return PermutationDimension(pointer: pointer, name: name(of: pointer), values: values, baseIndex: baseIndex)
    }

    func values(_ schema: EditorSchema, at pointer: JSONPointer, base baseValue: JSONValue) -> [PermutationDimension.Value]? {
        switch schema {
        case .boolean:
            return [false, true].map { .init(label: $0 ? "true" : "false", setting: .bool($0), json: .bool($0)) }
        case .enumeration(_, let cases):
            return cases.map { .init(label: PermutationDimension.label(of: $0, position: 0), setting: $0, json: $0) }
        case .optional(let wrapped):
            let nothing = PermutationDimension.Value(label: "nil", setting: .null, json: .null)
            switch wrapped {
            case .boolean, .enumeration:
                return [nothing] + (values(wrapped, at: pointer, base: baseValue) ?? [])
            default:
                let present = baseValue == .null ? samples.lazy.compactMap { $0.value(at: pointer) }.first { $0 != .null } : baseValue
                guard let present else { return nil }
                let label = Self.presentLabel(present)
                return [nothing, .init(label: label, setting: .string(label), json: present)]
            }
        case .union(_, let cases):
            return cases.compactMap { unionCase in
                let candidates = [baseValue] + samples.compactMap { $0.value(at: pointer) }
                guard let payload = candidates.first(where: { $0.objectValue?.count == 1 && $0.objectValue?[unionCase.name] != nil }) else { return nil }
                return .init(label: unionCase.name, setting: .string(unionCase.name), json: payload)
            }
        default:
            return nil
        }
    }

    /// The label of an optional's present value: a short scalar itself, else `set`.
    private static func presentLabel(_ value: JSONValue) -> String {
        switch value {
        case .string, .bool, .integer, .double, .exactNumber: PermutationDimension.label(of: value, position: 0)
        default: "set"
        }
    }
}

/// Why a component's permutations cannot be generated at all (a registration error).
struct PermutationError: Error, Sendable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}
