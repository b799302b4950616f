/// A type whose values are a component's commands, so that its suggestion function receives
/// them typed instead of comparing strings:
///
/// ```swift
/// enum CounterCommand: String, CommandRepresentable { case increment, decrement }
///
/// Button("+", command: CounterCommand.increment)
/// component.suggesting(CounterCommand.self) { props, invocation in
///     switch invocation.command { case .increment: ...; case .decrement: ... }
/// }
/// ```
///
/// A `String`-backed enum is its raw values on the wire; any other Codable type that encodes as a
/// JSON string is that string, and one that encodes as an object (an enum with associated values)
/// is its compact canonical JSON text. A command the type cannot decode is reported as an
/// `unknown-command` error instead of being ignored.
public protocol CommandRepresentable: Codable, Sendable {}

extension CommandRepresentable {
    /// This value as a `Command`.
    public var command: Command {
        switch try? JSONValueEncoder().encode(self) {
        case .string(let name)?: Command(name)
        case let value?: Command(value.serialized())
        case nil: Command(String(describing: self))
        }
    }

    /// The typed command a `Command` stands for, or why it is not one of this type's.
    static func decodeCommand(_ command: Command) -> Result<Self, UnknownCommand> {
        let decoder = JSONValueDecoder()
        if let value = try? decoder.decode(Self.self, from: .string(command.name)) { return .success(value) }
        if let json = try? JSONParser.parse(command.name), case .object = json, let value = try? decoder.decode(Self.self, from: json) {
            return .success(value)
        }
        var message = "unknown command '\(command.name)': \(Self.self) has no such command"
        if let cases = Self.self as? any CaseIterable.Type {
            let names = cases.allCommandNames
            if !names.isEmpty { message += " (known: \(names.joined(separator: ", ")))" }
        }
        return .failure(UnknownCommand(message: message))
    }
}

extension CaseIterable {
    /// The command names of every case, for error messages.
    fileprivate static var allCommandNames: [String] {
        allCases.compactMap { ($0 as? any CommandRepresentable)?.command.name }
    }
}
