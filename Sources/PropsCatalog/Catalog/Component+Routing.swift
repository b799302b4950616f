extension Component {
    /// Routes a command used in the view of `json` (these props, canonical JSON): a command from
    /// the view of an embedded child goes to that child first (recursively), and what it suggests
    /// is written back where the child's props are in `json`; then the component's own suggestion
    /// function sees the command on the props the child left. Nil when nothing changes.
    func route(_ json: JSONValue, _ invocation: CommandInvocation) -> Result<RoutedCommand?, EditError> {
        var props: Props
        do {
            props = try PropsDecoding.decode(Props.self, from: json)
        } catch {
            return .failure(EditError(error))
        }
        var routed: RoutedCommand?
        let child = EmbedRecorder.children { render(props) }.first { $0.commands.contains(invocation.command.name) }
        if let child {
            switch routeToChild(child, json, invocation) {
            case .failure(let error): return .failure(error)
            case .success(nil): break
            case .success(let next?):
                do {
                    props = try PropsDecoding.decode(Props.self, from: next.props)
                } catch {
                    return .failure(EditError(error))
                }
                routed = next
            }
        }
        switch suggestion?(props, invocation) {
        case .some(.failure(let unknown)) where child == nil:
            return .failure(EditError(.unknownCommand, unknown.message))
        case .some(.success(let next?)):
            do {
                let encoded = try JSONValueEncoder().encode(next)
                return .success(RoutedCommand(props: encoded, handledBy: routed?.handledBy ?? child.map { [$0.title] } ?? []))
            } catch {
                return .failure(EditError(.invalidProps, "cannot encode suggested props: \(error)"))
            }
        default:
            // A child that handled the command without changing anything changes nothing.
            return .success(routed.flatMap { $0.props == json ? nil : $0 })
        }
    }

    /// The child's suggestion written back into `json` where the child's props are.
    private func routeToChild(_ child: EmbeddedChild, _ json: JSONValue, _ invocation: CommandInvocation) -> Result<RoutedCommand?, EditError> {
        guard let childProps = child.props else {
            return .failure(EditError(.invalidProps, "the props of the embedded '\(child.title)' cannot be encoded"))
        }
        switch child.route(childProps, invocation) {
        case .failure(let error):
            return .failure(error)
        case .success(nil):
            return .success(RoutedCommand(props: json, handledBy: [child.title]))
        case .success(let next?):
            guard let path = json.firstPath(of: childProps) else {
                return .failure(EditError(.invalidProps, "the embedded '\(child.title)' suggested new props, but its props are not stored in the props of '\(title)' (Embed them from a field of the props) so they cannot be written back"))
            }
            return .success(RoutedCommand(props: json.replacing(at: path, with: next.props), handledBy: [child.title] + next.handledBy))
        }
    }

    /// The embedded components (outermost first) that a command used in the view of `props`
    /// reaches before the component itself; empty when it is the component's own.
    func handlers(of command: Command, in props: Props) -> [String] {
        guard let child = EmbedRecorder.children({ render(props) }).first(where: { $0.commands.contains(command.name) }) else { return [] }
        return [child.title] + child.handlers(command)
    }
}
