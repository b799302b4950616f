/// A failure reported with a code from the contract (docs/protocol.md, "Errors"), a message for
/// people and, where one field is at fault, its JSON Pointer: the server sends it as it is.
package protocol ContractError: Error, Sendable, CustomStringConvertible {
    /// The code as the contract spells it on the wire, e.g. `invalid-props`.
    var contractCode: String { get }
    /// What is wrong, for people.
    var message: String { get }
    /// The JSON Pointer of the field at fault, if one is.
    var path: String? { get }
}

extension ContractError {
    /// `code: message at path`.
    package var description: String {
        "\(contractCode): \(message)\(path.map { " at \($0)" } ?? "")"
    }
}
