/// An environment parameter outside its domain (the contract's `bad-environment`): what is wrong
/// and what is allowed, with the pointer of the parameter (`/locale`).
public struct EnvironmentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and what is allowed, for people.
    public let message: String
    /// The parameter at fault, as a JSON Pointer (`/colorScheme`).
    public let path: String

    /// An error about the parameter at `path`.
    public init(_ message: String, path: String) {
        self.message = message
        self.path = path
    }

    /// `message at path`.
    public var description: String { "\(message) at \(path)" }
}
