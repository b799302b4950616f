/// Why an edit was refused: a code from the contract, a message for people and, where one field
/// is at fault, its JSON Pointer. A refused edit changes nothing.
public struct EditError: Error, Sendable, Equatable, CustomStringConvertible {
    /// A contract error code, e.g. `invalid-props`.
    public struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        public let rawValue: String
        public init(rawValue: String) { self.rawValue = rawValue }
        public var description: String { rawValue }

        /// Not JSON, or nested deeper than the cap.
        public static let badJSON = Code(rawValue: "bad-json")
        /// JSON, but not a message: not an object, or a missing or wrongly typed field.
        public static let badMessage = Code(rawValue: "bad-message")
        public static let unknownType = Code(rawValue: "unknown-type")
        public static let notFound = Code(rawValue: "not-found")
        /// `base` is not the live version, or there is nothing to undo or redo.
        public static let conflict = Code(rawValue: "conflict")
        /// A JSON Patch `test` operation failed.
        public static let testFailed = Code(rawValue: "test-failed")
        public static let tooLarge = Code(rawValue: "too-large")
        /// The value does not decode into the Props type.
        public static let invalidProps = Code(rawValue: "invalid-props")
        /// The JSON Patch is malformed or cannot be applied (a path that does not exist).
        public static let invalidPatch = Code(rawValue: "invalid-patch")
        /// A dispatched command that the component's typed commands do not know.
        public static let unknownCommand = Code(rawValue: "unknown-command")
        public static let notSubscribed = Code(rawValue: "not-subscribed")
        public static let unauthorized = Code(rawValue: "unauthorized")
        public static let forbidden = Code(rawValue: "forbidden")
        public static let methodNotAllowed = Code(rawValue: "method-not-allowed")
        /// The change could not be written to the journal, so it was not made.
        public static let storageFailed = Code(rawValue: "storage-failed")
    }

    public let code: Code
    public let message: String
    public let path: String?

    public init(_ code: Code, _ message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    public var description: String {
        "\(code): \(message)\(path.map { " at \($0)" } ?? "")"
    }

    /// `{"code", "message", ["path"]}`, the body of every error the contract sends.
    public var json: JSONValue {
        var members: [String: JSONValue] = ["code": .string(code.rawValue), "message": .string(message)]
        if let path { members["path"] = .string(path) }
        return .object(members)
    }

    /// An invalid-props error from a decoding failure.
    public init(_ error: PropsError) {
        self.init(.invalidProps, error.message, path: error.path.description)
    }

    /// The error for a patch that failed.
    public init(_ error: JSONPatchError) {
        switch error.kind {
        case .testFailed: self.init(.testFailed, error.message, path: error.path)
        case .tooLarge: self.init(.tooLarge, error.message, path: error.path)
        default: self.init(.invalidPatch, error.message, path: error.path)
        }
    }
}
