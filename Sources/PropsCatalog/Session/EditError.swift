/// Why an edit of a story's props was refused: a code from the contract, a message for people and,
/// where one field is at fault, its JSON Pointer. A refused edit changes nothing.
///
/// Only failures of the edit itself live here; the server wraps them, unchanged on the wire, in its
/// own error type beside the protocol's codes (`bad-json`, `unauthorized`, ...).
package struct EditError: ContractError, Equatable {
    /// A contract error code (docs/protocol.md, "Errors"), e.g. `invalid-props`.
    package struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        /// The code as the contract spells it on the wire.
        package let rawValue: String
        /// A code by its contract spelling.
        package init(rawValue: String) { self.rawValue = rawValue }
        /// The contract spelling.
        package var description: String { rawValue }

        /// `base` is not the live version, or there is nothing to undo or redo.
        package static let conflict = Code(rawValue: "conflict")
        /// A JSON Patch `test` operation failed.
        package static let testFailed = Code(rawValue: "test-failed")
        /// The props (or the patch building them) would pass the size limit.
        package static let tooLarge = Code(rawValue: "too-large")
        /// The value does not decode into the Props type.
        package static let invalidProps = Code(rawValue: "invalid-props")
        /// The JSON Patch is malformed or cannot be applied (a path that does not exist).
        package static let invalidPatch = Code(rawValue: "invalid-patch")
        /// A dispatched command that the component's typed commands do not know.
        package static let unknownCommand = Code(rawValue: "unknown-command")
        /// A seek to a version that is not in the story's history (the contract's `not-found`).
        package static let unknownVersion = Code(rawValue: "not-found")
    }

    /// Which kind of failure.
    package let code: Code
    /// What is wrong, for people.
    package let message: String
    /// The JSON Pointer of the field at fault, if one is.
    package let path: String?

    /// An error with `code`, `message` and optionally the pointer of the field at fault.
    package init(_ code: Code, _ message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    /// The contract's spelling of `code`.
    package var contractCode: String { code.rawValue }

    /// An invalid-props error from a decoding failure.
    package init(_ error: PropsError) {
        self.init(.invalidProps, error.message, path: error.path.description)
    }

    /// The error for a patch that failed.
    package init(_ error: JSONPatchError) {
        switch error.kind {
        case .testFailed: self.init(.testFailed, error.message, path: error.path)
        case .tooLarge: self.init(.tooLarge, error.message, path: error.path)
        default: self.init(.invalidPatch, error.message, path: error.path)
        }
    }
}
