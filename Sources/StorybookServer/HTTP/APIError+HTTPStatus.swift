extension APIError {
    /// The HTTP status the contract gives each code.
    var httpStatus: Int {
        switch code {
        case .badJSON, .badMessage: 400
        case .unauthorized: 401
        case .forbidden: 403
        case .misdirected: 421
        case .upgradeRequired: 426
        case .unsupportedMediaType: 415
        case .notAcceptable: 406
        case .notFound, .notSubscribed: 404
        case .methodNotAllowed: 405
        case .conflict, .testFailed: 409
        case .tooLarge: 413
        case .invalidProps, .invalidPatch, .unknownCommand: 422
        case .storageFailed: 503
        default: 400
        }
    }
}
