/// Every registered component and its stories, with ids checked unique at start-up.
public struct Catalog: Sendable {
    /// A story: one variant of one component.
    public struct Story: Sendable {
        /// The story id, `<component-id>--<variant-slug>`.
        public let id: String
        /// The variant name.
        public let name: String
        /// The component the story belongs to.
        public let component: AnyComponent
        /// The registered props of the variant.
        public let props: JSONValue
    }

    /// The components in registration order.
    public let components: [AnyComponent]
    /// Every story in registration order.
    public let stories: [Story]
    /// The environment matrix `storybook export` and `check` render every story in, besides the
    /// default one (see ``testing(in:)``).
    public private(set) var environments: [ViewEnvironment] = []
    private let storyIndex: [String: Int]
    private let componentIndex: [String: Int]

    /// A catalog of type-erased components. Throws when two components, or two stories, share an id.
    public init(_ components: [AnyComponent]) throws(CatalogError) {
        var componentIndex: [String: Int] = [:]
        var storyIndex: [String: Int] = [:]
        var storyOwners: [String: String] = [:]
        var stories: [Story] = []
        for (position, component) in components.enumerated() {
            guard !component.id.isEmpty else { throw .emptyTitle(component.title) }
            guard !component.variants.isEmpty else { throw .noVariants(title: component.title) }
            if let earlier = componentIndex[component.id] {
                throw .duplicateID(component.id, first: "component '\(components[earlier].title)'", second: "component '\(component.title)'")
            }
            componentIndex[component.id] = position
            for variant in component.variants {
                let owner = "'\(component.title)' variant '\(variant.name)'"
                guard variant.id != component.id + "--" else { throw .emptyVariantName(title: component.title, variant: variant.name) }
                if let earlier = storyOwners[variant.id] {
                    throw .duplicateID(variant.id, first: earlier, second: owner)
                }
                storyOwners[variant.id] = owner
                storyIndex[variant.id] = stories.count
                stories.append(Story(id: variant.id, name: variant.name, component: component, props: variant.props))
            }
        }
        self.components = components
        self.stories = stories
        self.storyIndex = storyIndex
        self.componentIndex = componentIndex
    }

    /// A catalog built from typed components: `try Catalog { login; profile }`.
    public init(@CatalogBuilder _ content: () -> [CatalogBuilder.Registration]) throws(CatalogError) {
        var components: [AnyComponent] = []
        for registration in content() {
            components.append(try registration.result.get())
        }
        try self.init(components)
    }

    /// This catalog with an environment matrix: export and check render every story in each of
    /// `environments` too, and keep goldens for those where it renders differently.
    public func testing(in environments: [ViewEnvironment]) -> Catalog {
        var copy = self
        copy.environments = environments
        return copy
    }

    /// The story with this id.
    public func story(id: String) -> Story? {
        storyIndex[id].map { stories[$0] }
    }

    /// The component with this id.
    public func component(id: String) -> AnyComponent? {
        componentIndex[id].map { components[$0] }
    }

    /// This catalog with one component replaced by a new version of it (same id).
    package func replacing(_ component: AnyComponent) throws(CatalogError) -> Catalog {
        try Catalog(components.map { $0.id == component.id ? component : $0 }).testing(in: environments)
    }

    /// This catalog with more components appended, checked again for duplicate ids.
    public func adding(_ more: [AnyComponent]) throws(CatalogError) -> Catalog {
        try Catalog(components + more).testing(in: environments)
    }
}

/// Collects typed components into a catalog; erasure errors surface when the catalog is built.
@resultBuilder
public enum CatalogBuilder {
    /// One component, erased, or why it could not be.
    public struct Registration: Sendable {
        let result: Result<AnyComponent, CatalogError>
    }

    /// A component, registered as written.
    public static func buildExpression<Props>(_ component: Component<Props>) -> [Registration] {
        [Registration(result: Result { () throws(CatalogError) in try AnyComponent(component) })]
    }

    /// Components already type-erased (another catalog's, or built in a loop).
    public static func buildExpression(_ components: [AnyComponent]) -> [Registration] {
        components.map { Registration(result: .success($0)) }
    }

    /// The registrations of a block, in order.
    public static func buildBlock(_ parts: [Registration]...) -> [Registration] {
        parts.flatMap { $0 }
    }

    /// The registrations of a `for` loop.
    public static func buildArray(_ parts: [[Registration]]) -> [Registration] {
        parts.flatMap { $0 }
    }

    /// The registrations of an `if` without `else` (none when it is false).
    public static func buildOptional(_ part: [Registration]?) -> [Registration] {
        part ?? []
    }

    /// The registrations of the first branch of an `if`/`else`.
    public static func buildEither(first part: [Registration]) -> [Registration] { part }
    /// The registrations of the second branch of an `if`/`else`.
    public static func buildEither(second part: [Registration]) -> [Registration] { part }
}
