/// A command as a value: what a button or a field sends when used, instead of a closure.
///
/// Encodes as a plain JSON string (`"login"`, `"remove:42"`), so it can live inside Props, be
/// rendered into a projection, travel in a `dispatch` message and be recorded like any other
/// value. Write it as a string literal, with interpolation (`"remove:\(item.id)"`), or from a
/// typed command (`Command(CartCommand.checkout)`, see `CommandRepresentable`).
public struct Command: Codable, Sendable, Hashable, ExpressibleByStringInterpolation, CustomStringConvertible {
    /// The command's name, e.g. `login` or `username.update`.
    public var name: String

    /// A command by name, e.g. `"login"` or `"select:boston-common"`.
    public init(_ name: String) {
        self.name = name
    }

    /// The command a typed command value stands for: its JSON string, or, for a value that does
    /// not encode as a string (an enum with associated values), its compact canonical JSON text.
    public init(_ value: some CommandRepresentable) {
        self = value.command
    }

    /// A command from a string literal: `command: "login"`.
    public init(stringLiteral value: String) {
        self.name = value
    }

    /// A command from an interpolated string: `"select:\(item.id)"`.
    public init(stringInterpolation: DefaultStringInterpolation) {
        self.name = String(stringInterpolation: stringInterpolation)
    }

    /// Reads a command from its JSON string.
    public init(from decoder: any Decoder) throws {
        name = try decoder.singleValueContainer().decode(String.self)
    }

    /// Writes the command as its JSON string.
    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    /// The name.
    public var description: String { name }
}

/// A command being used, untyped: the `Command` plus what came with it (the text typed into a field).
public typealias CommandInvocation = Invocation<Command>

extension Command: CommandRepresentable {
    /// Itself: every command is one of `Command`'s.
    public var command: Command { self }
}
