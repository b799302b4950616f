/// A command being used: the command (decoded into the component's command type for a typed
/// suggestion function, a plain `Command` otherwise: `CommandInvocation`) plus what came with it.
public struct Invocation<Commands: CommandRepresentable>: Sendable {
    /// The command, decoded into the component's command type.
    public var command: Commands
    /// What the browser sent with the command, as JSON: a text field sends its new text.
    public var payload: JSONValue?

    /// An invocation of `command`, with the typed text or other payload the view sent, if any.
    public init(_ command: Commands, payload: JSONValue? = nil) {
        self.command = command
        self.payload = payload
    }

    /// The payload as a string, when it is one: the text typed into a field
    /// (`TextField("Name", value: props.name, command: "name.update")` sends its new text).
    public var text: String? { payload?.stringValue }
}

extension Invocation: Equatable where Commands: Equatable {}
extension Invocation: Hashable where Commands: Hashable {}
