extension Component {
    /// Routes a command used in the view of `json` (these props, canonical JSON): a command from
    /// the view of an embedded child goes to that child first (recursively), and what it suggests
    /// is written back where the child's props are in `json`; then the component's own suggestion
    /// function sees the command on the props the child left. The next props, or nil when nothing
    /// changes.
    func route(_ json: JSONValue, _ invocation: CommandInvocation) -> Result<JSONValue?, EditError> {
        var props: Props
        do {
            props = try PropsDecoding.decode(Props.self, from: json)
        } catch {
            return .failure(EditError(error))
        }
        var next = json
        let child = embeddedChild(of: props, handling: invocation.command)
        if let child {
            switch routeToChild(child, json, invocation) {
            case .failure(let error): return .failure(error)
            case .success(nil): break
            case .success(let written?):
                do {
                    props = try PropsDecoding.decode(Props.self, from: written)
                } catch {
                    return .failure(EditError(error))
                }
                next = written
            }
        }
        switch suggestion?(props, invocation) {
        case .some(.failure(let unknown)) where child == nil:
            return .failure(EditError(.unknownCommand, unknown.message))
        case .some(.success(let suggested?)):
            do {
                return .success(try JSONValueEncoder().encode(suggested))
            } catch {
                return .failure(EditError(.invalidProps, "cannot encode suggested props: \(error)"))
            }
        default:
            // (`JSONValue` is nil-literal convertible itself: spell out "no change".)
            return .success(next == json ? Optional<JSONValue>.none : next)
        }
    }

    /// The child's suggestion written back into `json` where the child's props are.
    private func routeToChild(_ child: EmbeddedChild, _ json: JSONValue, _ invocation: CommandInvocation) -> Result<JSONValue?, EditError> {
        guard let childProps = child.props else {
            return .failure(EditError(.invalidProps, "the props of the embedded '\(child.title)' cannot be encoded"))
        }
        return child.route(childProps, invocation).flatMap { suggested in
            guard let suggested else { return .success(nil) }
            guard let path = json.firstPath(of: childProps) else {
                return .failure(EditError(.invalidProps, "the embedded '\(child.title)' suggested new props, but its props are not stored in the props of '\(title)' (Embed them from a field of the props) so they cannot be written back"))
            }
            return .success(json.replacing(at: path, with: suggested))
        }
    }

    /// The first child embedded in the view of `props` whose own view uses `command`.
    private func embeddedChild(of props: Props, handling command: Command) -> EmbeddedChild? {
        EmbedRecorder.children { render(props) }.first { $0.commands.contains(command.name) }
    }

    /// The embedded components (outermost first) that a command used in the view of `props`
    /// reaches before the component itself; empty when it is the component's own.
    func handlers(of command: Command, in props: Props) -> [String] {
        guard let child = embeddedChild(of: props, handling: command) else { return [] }
        return [child.title] + child.handlers(command)
    }
}
