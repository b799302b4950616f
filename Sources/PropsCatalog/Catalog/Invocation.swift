/// A typed command being used: the command decoded into the component's command type, plus what
/// came with it.
public struct Invocation<Commands: CommandRepresentable>: Sendable {
    /// The command, decoded into the component's command type.
    public var command: Commands
    /// What the browser sent with the command, as JSON: a text field sends its new text.
    public var payload: JSONValue?

    public init(_ command: Commands, payload: JSONValue? = nil) {
        self.command = command
        self.payload = payload
    }

    /// The payload as a string, when it is one: the text typed into a field.
    public var text: String? { payload?.stringValue }
}
