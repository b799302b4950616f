/// A child component met by `Embed` while its parent rendered: what the parent needs to route a
/// command to it and to learn its schema.
struct EmbeddedChild: Sendable {
    /// The child component's title.
    let title: String
    /// The child's props as canonical JSON; nil when they cannot be encoded.
    let props: JSONValue?
    /// The names of the commands in the child's view (its own embedded children's included).
    let commands: Set<String>
    /// The child's routing of a command on its own props (see `Component.route`).
    let route: @Sendable (JSONValue, CommandInvocation) -> Result<JSONValue?, EditError>
    /// The embedded components below the child that a command reaches first (`Component.handlers`).
    let handlers: @Sendable (Command) -> [String]
    /// The child component's editor hints, keyed by its own schema paths.
    let hints: [String: FieldHint]
    /// Feeds the child's variants to a schema inference, so the parent's schema knows the child's
    /// union cases and examples.
    let teachSchema: @Sendable (SchemaProbe) -> Void

    init<Child>(_ component: Component<Child>, props: Child, nodes: [ViewNode]) {
        title = component.title
        self.props = try? JSONValueEncoder().encode(props)
        commands = Set(nodes.flatMap(\.commandNames))
        route = { json, invocation in component.route(json, invocation) }
        handlers = { command in component.handlers(of: command, in: props) }
        hints = component.hints
        teachSchema = { probe in
            for variant in component.variants {
                guard let sample = try? JSONValueEncoder().encode(variant.props) else { continue }
                _ = probe.probe(Child.self, sample: sample, codingPath: [])
            }
        }
    }
}
