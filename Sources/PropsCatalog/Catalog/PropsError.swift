/// Why a JSON value is not acceptable Props: a human message and the JSON Pointer of the field at fault.
package struct PropsError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The field at fault (`/input/_0/username/value`); the root pointer when the whole value is.
    package let path: JSONPointer
    /// What is wrong, for people: "expected a string, found a number".
    package let message: String
    /// The value is no case of a raw-value enum: the component's schema may say which values are.
    package let isUnknownRawValue: Bool

    package init(path: JSONPointer, message: String, isUnknownRawValue: Bool = false) {
        self.path = path
        self.message = message
        self.isUnknownRawValue = isUnknownRawValue
    }

    package var description: String {
        path.tokens.isEmpty ? message : "\(path): \(message)"
    }
}
