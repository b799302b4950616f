/// An environment parameter outside its domain (the contract's `bad-environment`): what is wrong
/// and what is allowed, with the pointer of the parameter (`/locale`).
package struct EnvironmentError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong and what is allowed, for people.
    package let message: String
    /// The parameter at fault, as a JSON Pointer (`/colorScheme`).
    package let path: String

    /// An error about the parameter at `path`.
    package init(_ message: String, path: String) {
        self.message = message
        self.path = path
    }

    /// `message at path`.
    package var description: String { "\(message) at \(path)" }
}
