/// Why props could not be added to a component as a saved variant.
package struct SavedVariantError: ContractError, Equatable {
    /// Which kind of failure; the raw value is the contract's error code.
    package enum Reason: String, Sendable {
        /// The name makes no story id: no letters or digits (`bad-message`).
        case badName = "bad-message"
        /// Another variant of the component already has the id the name makes (`conflict`).
        case idTaken = "conflict"
        /// The props do not decode into the Props type (`invalid-props`).
        case invalidProps = "invalid-props"
    }

    package let reason: Reason
    package let message: String
    /// The JSON Pointer at fault: `/name`, or the field of the props.
    package let path: String?

    package init(_ reason: Reason, _ message: String, path: String? = nil) {
        self.reason = reason
        self.message = message
        self.path = path
    }

    /// The contract's spelling of `reason`.
    package var contractCode: String { reason.rawValue }
}
