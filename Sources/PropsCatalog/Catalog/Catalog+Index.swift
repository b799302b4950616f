extension Catalog {
    /// The index of the contract: `{"v": 1, "components": [{"id", "title", "propsType", "stories": [{"id", "name"}]}]}`
    /// in registration order (an array, so order survives any JSON reader).
    package var index: JSONValue {
        .object([
            "v": 1,
            "components": .array(components.map { component in
                var members: [String: JSONValue] = [
                    "id": .string(component.id),
                    "title": .string(component.title),
                    "propsType": .string(component.propsType),
                    "stories": .array(component.variants.map(\.indexJSON)),
                ]
                if !component.leftOut.isEmpty { members["leftOut"] = .array(component.leftOut.map(\.json)) }
                return .object(members)
            }),
        ])
    }
}

extension AnyComponent.Variant {
    /// `{"id", "name"}`, with `"saved": true` for a saved variant, `"generated": true` and
    /// `"settings"` for a generated story.
    package var indexJSON: JSONValue {
        var members: [String: JSONValue] = ["id": .string(id), "name": .string(name)]
        if isSaved { members["saved"] = true }
        if let settings {
            members["generated"] = true
            members["settings"] = settings.json
        }
        return .object(members)
    }
}

extension Catalog.Story {
    /// The headless view of the registered props.
    package func registeredView() -> Result<[ViewNode], PropsError> {
        component.validate(props).map(\.view)
    }

    /// The headless view of the registered props in `environment`.
    package func registeredView(in environment: ViewEnvironment) -> Result<[ViewNode], PropsError> {
        component.validate(props, in: environment).map(\.view)
    }
}
