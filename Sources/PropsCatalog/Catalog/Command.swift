/// A command as a value: what a button or a field sends when used, instead of a closure.
///
/// Encodes as a plain JSON string (`"login"`), so it can live inside Props, be rendered into a
/// projection, travel in a `dispatch` message and be recorded like any other value.
public struct Command: Codable, Sendable, Hashable, ExpressibleByStringLiteral, CustomStringConvertible {
    /// The command's name, e.g. `login` or `username.update`.
    public var name: String

    public init(_ name: String) {
        self.name = name
    }

    public init(stringLiteral value: String) {
        self.name = value
    }

    public init(from decoder: any Decoder) throws {
        name = try decoder.singleValueContainer().decode(String.self)
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(name)
    }

    public var description: String { name }
}

/// A command being used: the command value plus what came with it (the text typed into a field).
public struct CommandInvocation: Sendable, Hashable {
    public var command: Command
    public var payload: JSONValue?

    public init(_ command: Command, payload: JSONValue? = nil) {
        self.command = command
        self.payload = payload
    }

    /// The payload as a string, when it is one.
    public var text: String? { payload?.stringValue }
}
