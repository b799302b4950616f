/// Why the transport could not start or a libwebsockets call failed.
package struct TransportError: Error, Equatable, CustomStringConvertible {
    private enum Kind: Equatable {
        case alreadyStarted
        case invalidConfiguration(String)
        case threadSpawnFailed(code: Int32)
        case contextCreationFailed
        case cannotListen(host: String, port: Int)
        case callFailed(function: String, code: Int)
    }

    private let kind: Kind

    private init(_ kind: Kind) {
        self.kind = kind
    }

    /// `start()` was called on a transport that is running or has run: create a new one instead.
    package static let alreadyStarted = TransportError(.alreadyStarted)

    /// A configuration value is out of range.
    package static func invalidConfiguration(_ reason: String) -> TransportError {
        TransportError(.invalidConfiguration(reason))
    }

    /// The loop thread could not be created (`pthread_create` returned `code`).
    package static func threadSpawnFailed(code: Int32) -> TransportError {
        TransportError(.threadSpawnFailed(code: code))
    }

    /// `lws_create_context` failed.
    package static let contextCreationFailed = TransportError(.contextCreationFailed)

    /// The listening socket could not be bound: the port is in use, the address is not local, or the
    /// process lacks the privilege.
    package static func cannotListen(host: String, port: Int) -> TransportError {
        TransportError(.cannotListen(host: host, port: port))
    }

    /// A libwebsockets call reported failure (a nonzero or negative return, or NULL).
    package static func callFailed(_ function: String, code: Int) -> TransportError {
        TransportError(.callFailed(function: function, code: code))
    }

    package var description: String {
        switch kind {
        case .alreadyStarted:
            "the transport was already started; create a new one"
        case .invalidConfiguration(let reason):
            "invalid transport configuration: \(reason)"
        case .threadSpawnFailed(let code):
            "could not start the transport thread (pthread_create returned \(code))"
        case .contextCreationFailed:
            "libwebsockets could not create its context"
        case .cannotListen(let host, let port):
            "cannot listen on \(host):\(port) (address in use or not available)"
        case .callFailed(let function, let code):
            "\(function) failed (returned \(code))"
        }
    }
}
