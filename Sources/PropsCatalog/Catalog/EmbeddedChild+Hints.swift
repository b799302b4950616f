extension EmbeddedChild {
    /// The children's editor hints moved to the parent's schema: for each parent variant (its props
    /// `sample` and the children met while it rendered), at every place of the sample that holds a
    /// child's props, each of the child's hint paths below that place's schema path (`/lines/*` +
    /// `/note`). One walk per variant, however many children it embeds.
    static func hints(of variants: [(sample: JSONValue, children: [EmbeddedChild])], in schema: EditorSchema) -> [String: FieldHint] {
        var result: [String: FieldHint] = [:]
        for (sample, children) in variants {
            var byProps: [JSONValue: [EmbeddedChild]] = [:]
            for child in children where !child.hints.isEmpty {
                if let props = child.props { byProps[props, default: []].append(child) }
            }
            guard !byProps.isEmpty else { continue }
            for place in sample.places(where: { byProps[$0] != nil }) {
                guard let prefix = schema.schemaPath(of: place.pointer) else { continue }
                for child in byProps[place.value] ?? [] {
                    for (path, hint) in child.hints {
                        guard let below = try? JSONPointer(parsing: path) else { continue }
                        result[JSONPointer(tokens: prefix.tokens + below.tokens).description] = hint
                    }
                }
            }
        }
        return result
    }
}
