package import PropsCatalog

/// An error the server answers with, over HTTP, WebSocket and MCP alike: a code from the contract
/// (docs/protocol.md, "Errors"), a message for people and, where one field is at fault, its JSON
/// Pointer. Protocol and access failures are made here; the core's failures (`EditError`,
/// `RecordingError`, ...) are wrapped with their code unchanged.
package struct APIError: ContractError, Equatable {
    /// A contract error code, e.g. `bad-message`.
    package struct Code: RawRepresentable, Sendable, Hashable, CustomStringConvertible {
        package let rawValue: String
        package init(rawValue: String) { self.rawValue = rawValue }
        package var description: String { rawValue }

        /// Not JSON, or nested deeper than the cap.
        package static let badJSON = Code(rawValue: "bad-json")
        /// JSON, but not a message: not an object, or a missing or wrongly typed field.
        package static let badMessage = Code(rawValue: "bad-message")
        /// A WebSocket message whose `type` the protocol does not have.
        package static let unknownType = Code(rawValue: "unknown-type")
        /// No such route, story, component, renderer, file or session.
        package static let notFound = Code(rawValue: "not-found")
        /// A story message on a connection not subscribed to the story.
        package static let notSubscribed = Code(rawValue: "not-subscribed")
        /// The server needs its access token.
        package static let unauthorized = Code(rawValue: "unauthorized")
        /// The origin may not change anything, or the feature is switched off.
        package static let forbidden = Code(rawValue: "forbidden")
        /// The route does not answer this method (with an `Allow` header).
        package static let methodNotAllowed = Code(rawValue: "method-not-allowed")
        /// The change could not be written to the journal (or a file), so it was not made.
        package static let storageFailed = Code(rawValue: "storage-failed")
        /// The request's `Host` is not a name this server answers to (DNS rebinding).
        package static let misdirected = Code(rawValue: "misdirected")
        /// A request body that is not `application/json`.
        package static let unsupportedMediaType = Code(rawValue: "unsupported-media-type")
        /// A request whose `Accept` excludes the only type the route answers with.
        package static let notAcceptable = Code(rawValue: "not-acceptable")
        /// A malformed request: a missing or repeated `Host`, a query parameter outside its domain.
        package static let badRequest = Code(rawValue: "bad-request")
        /// An environment parameter (or WebSocket `environment` member) outside its domain.
        package static let badEnvironment = Code(rawValue: "bad-environment")
        /// A plain request to the WebSocket endpoint (`/ws`), which answers upgrades only.
        package static let upgradeRequired = Code(rawValue: "upgrade-required")
        /// A version, name or report that clashes with what is there (and every refused edit's
        /// `conflict`).
        package static let conflict = Code(rawValue: "conflict")

        /// The codes of refused edits, as the core names them.
        package static let testFailed: Code = Code(EditError.Code.testFailed)
        package static let tooLarge: Code = Code(EditError.Code.tooLarge)
        package static let invalidProps: Code = Code(EditError.Code.invalidProps)
        package static let invalidPatch: Code = Code(EditError.Code.invalidPatch)
        package static let unknownCommand: Code = Code(EditError.Code.unknownCommand)

        /// The same code as a refused edit's.
        package init(_ code: EditError.Code) { self.init(rawValue: code.rawValue) }
    }

    package let code: Code
    package let message: String
    package let path: String?

    package init(_ code: Code, _ message: String, path: String? = nil) {
        self.code = code
        self.message = message
        self.path = path
    }

    /// The contract's spelling of `code`.
    package var contractCode: String { code.rawValue }

    /// `{"code", "message", ["path"]}`, the body of every error the contract sends.
    package var json: JSONValue {
        var members: [String: JSONValue] = ["code": .string(code.rawValue), "message": .string(message)]
        if let path { members["path"] = .string(path) }
        return .object(members)
    }
}

extension APIError {
    /// A failure of the core (a refused edit, a recording that could not be cut or read, props
    /// that could not become a saved variant), with its code as the core gave it.
    package init(_ error: some ContractError) {
        self.init(Code(rawValue: error.contractCode), error.message, path: error.path)
    }

    /// An environment parameter outside its domain.
    package init(_ error: EnvironmentError) {
        self.init(.badEnvironment, error.message, path: error.path)
    }

    /// Props that do not decode into the Props type (`invalid-props`).
    package init(_ error: PropsError) {
        self.init(EditError(error))
    }

    /// A JSON Patch that could not be read or applied.
    package init(_ error: JSONPatchError) {
        self.init(EditError(error))
    }
}
