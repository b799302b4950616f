import Synchronization

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
    let route: @Sendable (JSONValue, CommandInvocation) -> Result<RoutedCommand?, EditError>
    /// The embedded components below the child that a command reaches first (`Component.handlers`).
    let handlers: @Sendable (Command) -> [String]
    /// Feeds the child's variants to a schema inference, so the parent's schema knows the child's
    /// union cases and examples.
    let teachSchema: @Sendable (SchemaProbe) -> Void

    init<Child>(_ component: Component<Child>, props: Child, nodes: [ViewNode]) {
        title = component.title
        self.props = try? JSONValueEncoder().encode(props)
        commands = Set(nodes.flatMap(\.commandNames))
        route = { json, invocation in component.route(json, invocation) }
        handlers = { command in component.handlers(of: command, in: props) }
        let samples = component.variants.compactMap { try? JSONValueEncoder().encode($0.props) }
        teachSchema = { probe in
            for sample in samples { _ = probe.probe(Child.self, sample: sample, codingPath: []) }
        }
    }
}

/// A command routed through a component and its embedded children: the component's next props
/// and which embedded components (outermost first) handled the command on the way.
struct RoutedCommand: Sendable {
    var props: JSONValue
    var handledBy: [String]
}

/// Collects the children `Embed` meets while a parent renders (only while one is installed).
final class EmbedRecorder: Sendable {
    /// The recorder of the render running on this task, if any.
    @TaskLocal static var current: EmbedRecorder?

    private let recorded = Mutex<[EmbeddedChild]>([])

    var children: [EmbeddedChild] { recorded.withLock { $0 } }

    func record(_ child: EmbeddedChild) {
        recorded.withLock { $0.append(child) }
    }

    /// The children embedded by `render()`, directly (not their own children).
    static func children(_ render: () -> [ViewNode]) -> [EmbeddedChild] {
        let recorder = EmbedRecorder()
        _ = $current.withValue(recorder) { render() }
        return recorder.children
    }
}

extension ViewNode {
    /// The names of every command in this node and below.
    var commandNames: [String] {
        switch self {
        case .button(_, let command), .textField(_, _, _, let command), .toggle(_, _, let command):
            return command.map { [$0.name] } ?? []
        case .listItem(_, let command, let children):
            return (command.map { [$0.name] } ?? []) + children.flatMap(\.commandNames)
        case .stack(_, let children), .list(let children), .section(_, let children), .component(_, let children):
            return children.flatMap(\.commandNames)
        default:
            return []
        }
    }
}
