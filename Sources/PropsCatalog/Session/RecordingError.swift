/// Why a recording could not be cut from a history or read from JSON. Reading stops at the first
/// bad entry; nothing is returned partially.
package struct RecordingError: ContractError, Equatable {
    /// Which kind of failure; the raw value is the contract's error code.
    package enum Reason: String, Sendable {
        /// The versions asked for are not all in the history (`not-found`).
        case notRecorded = "not-found"
        /// Not a recording: not an object, another format version, a missing or wrongly typed field (`bad-message`).
        case malformed = "bad-message"
        /// An entry's patch cannot be applied to the props before it (`invalid-patch`).
        case invalidPatch = "invalid-patch"
        /// An entry's props do not decode into the Props type (`invalid-props`).
        case invalidProps = "invalid-props"
        /// The entries together would build or decode more than the size limit allows (`too-large`).
        case tooLarge = "too-large"
    }

    /// Which kind of failure.
    package let reason: Reason
    /// What is wrong, for people.
    package let message: String
    /// The JSON Pointer of the field at fault in the recording, if one is.
    package let path: String?

    /// An error for `reason`.
    package init(_ reason: Reason, _ message: String, path: String? = nil) {
        self.reason = reason
        self.message = message
        self.path = path
    }

    /// The contract's spelling of `reason`.
    package var contractCode: String { reason.rawValue }
}
