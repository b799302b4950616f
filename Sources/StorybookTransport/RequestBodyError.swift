/// Why a request body was refused; each maps to the JSON error answer the transport sends.
enum RequestBodyError: Error, Equatable {
    case tooLarge(limit: Int)
    case malformed(String)
    case headTooLarge(limit: Int)
    case unsupportedTransferEncoding

    var response: HTTPResponse {
        switch self {
        case .tooLarge(let limit):
            .transportError(status: 413, code: "too-large", message: "request body exceeds \(limit) bytes")
        case .malformed(let reason):
            .transportError(status: 400, code: "bad-request", message: reason)
        case .headTooLarge(let limit):
            .transportError(status: 431, code: "headers-too-large", message: "the request line and headers exceed \(limit) bytes")
        case .unsupportedTransferEncoding:
            .transportError(status: 501, code: "not-implemented", message: "only chunked transfer coding is supported")
        }
    }
}
