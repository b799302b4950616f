/// How a request's body is delimited, decided from its headers before any body byte is read.
enum BodyFraming: Equatable {
    /// No body (no `Content-Length`, or zero, and no `Transfer-Encoding`).
    case none
    /// Exactly this many bytes follow the head.
    case contentLength(Int)
    /// `Transfer-Encoding: chunked`.
    case chunked

    /// The framing of a request, or why it cannot be accepted.
    ///
    /// Requests carrying both `Content-Length` and `Transfer-Encoding` are refused (the classic request
    /// smuggling ambiguity), as are chunked bodies on methods other than POST, PUT and PATCH: for those,
    /// libwebsockets does not expect a body and would parse it as the next request.
    static func of(
        method: HTTPMethod,
        contentLength: String?,
        transferEncoding: String?,
        limit: Int
    ) -> Result<BodyFraming, RequestBodyError> {
        if let transferEncoding, !transferEncoding.isEmpty {
            guard contentLength == nil else {
                return .failure(.malformed("a request must not carry both Content-Length and Transfer-Encoding"))
            }
            guard transferEncoding.trimmingSpaces.lowercased() == "chunked" else {
                return .failure(.unsupportedTransferEncoding)
            }
            guard [.post, .put, .patch].contains(method) else {
                return .failure(.malformed("a chunked body is only accepted on POST, PUT and PATCH"))
            }
            return .success(.chunked)
        }
        guard let contentLength else { return .success(.none) }
        let digits = contentLength.trimmingSpaces
        guard !digits.isEmpty, digits.count <= 18, digits.utf8.allSatisfy({ (0x30...0x39).contains($0) }),
              let length = Int(digits)
        else {
            return .failure(.malformed("invalid Content-Length"))
        }
        if length > limit { return .failure(.tooLarge(limit: limit)) }
        return .success(length == 0 ? .none : .contentLength(length))
    }
}
