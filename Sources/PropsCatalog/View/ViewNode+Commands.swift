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
