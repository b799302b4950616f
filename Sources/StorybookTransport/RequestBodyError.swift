/// Why a request body was refused; each maps to the JSON error answer the transport sends.
enum RequestBodyError: Error, Equatable {
    case tooLarge(limit: Int)
    case malformed(String)
    case unsupportedTransferEncoding

    var response: HTTPResponse {
        switch self {
        case .tooLarge(let limit):
            .transportError(status: 413, code: "too-large", message: "request body exceeds \(limit) bytes")
        case .malformed(let reason):
            .transportError(status: 400, code: "bad-request", message: reason)
        case .unsupportedTransferEncoding:
            .transportError(status: 501, code: "not-implemented", message: "only chunked transfer coding is supported")
        }
    }
}
