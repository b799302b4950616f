extension Catalog {
    /// The index of the contract: `{"v": 1, "components": [{"id", "title", "propsType", "stories": [{"id", "name"}]}]}`
    /// in registration order (an array, so order survives any JSON reader).
    public var index: JSONValue {
        .object([
            "v": 1,
            "components": .array(components.map { component in
                .object([
                    "id": .string(component.id),
                    "title": .string(component.title),
                    "propsType": .string(component.propsType),
                    "stories": .array(component.variants.map { variant in
                        variant.isSaved
                            ? .object(["id": .string(variant.id), "name": .string(variant.name), "saved": true])
                            : .object(["id": .string(variant.id), "name": .string(variant.name)])
                    }),
                ])
            }),
        ])
    }
}

extension Catalog.Story {
    /// The headless view of the registered props.
    public func registeredView() -> Result<[ViewNode], PropsError> {
        component.validate(props).map(\.view)
    }

    /// The headless view of the registered props in `environment`.
    public func registeredView(in environment: ViewEnvironment) -> Result<[ViewNode], PropsError> {
        component.validate(props, in: environment).map(\.view)
    }
}
