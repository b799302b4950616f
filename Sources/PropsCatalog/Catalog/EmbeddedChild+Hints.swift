extension EmbeddedChild {
    /// The children's editor hints moved to the parent's schema: for each child met while a parent
    /// variant rendered, at every place of that variant's props that holds the child's props, each
    /// of the child's hint paths below that place's schema path (`/lines/*` + `/note`).
    static func hints(of placed: [(child: EmbeddedChild, sample: JSONValue)], in schema: EditorSchema) -> [String: FieldHint] {
        var result: [String: FieldHint] = [:]
        for (child, sample) in placed {
            guard !child.hints.isEmpty, let props = child.props else { continue }
            for place in sample.places(holding: props) {
                guard let prefix = schema.schemaPath(of: place) else { continue }
                for (path, hint) in child.hints {
                    guard let below = try? JSONPointer(parsing: path) else { continue }
                    result[JSONPointer(tokens: prefix.tokens + below.tokens).description] = hint
                }
            }
        }
        return result
    }
}

private extension JSONValue {
    /// The pointers of every value inside this one (itself included) equal to `value`.
    func places(holding value: JSONValue) -> [JSONPointer] {
        var found: [JSONPointer] = []
        collect(value, at: JSONPointer(), into: &found, depth: 0)
        return found
    }

    private func collect(_ value: JSONValue, at pointer: JSONPointer, into found: inout [JSONPointer], depth: Int) {
        if self == value { found.append(pointer); return }
        guard depth < 32 else { return }
        switch self {
        case .object(let members):
            for (key, member) in members { member.collect(value, at: pointer.appending(key), into: &found, depth: depth + 1) }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                element.collect(value, at: pointer.appending(String(index)), into: &found, depth: depth + 1)
            }
        default:
            break
        }
    }
}
