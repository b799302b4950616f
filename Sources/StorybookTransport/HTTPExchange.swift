/// Where one HTTP transaction on a connection stands. A keep-alive connection runs one after another,
/// each with a fresh exchange. Loop-thread only.
struct HTTPExchange {
    enum Stage: Equatable {
        /// The head arrived; the body is being collected.
        case receivingBody
        /// The request went to the delegate; waiting for `respond`.
        case awaitingResponse
        /// `output` is being written.
        case responding
    }

    /// The request line and headers (the body goes to the delegate, not here).
    var request: HTTPRequest
    var collector: RequestBodyCollector
    var stage: Stage
    var output: ResponseOutput?
    /// Bytes arrived that lws cannot parse as the next request (stray body bytes, pipelined data after
    /// a chunked body): the connection closes after this response.
    var closeAfterResponse = false

    init(request: HTTPRequest, collector: RequestBodyCollector) {
        self.request = request
        self.collector = collector
        self.stage = .receivingBody
        self.closeAfterResponse = Self.lwsAwaitsUndeclaredBody(request)
    }

    /// lws 4.1 assumes a POST, PUT or PATCH without `Content-Length` (including a chunked one) has a body
    /// of up to 100 MB still to come, and will not read the next request on the connection until it has
    /// seen it. Such a request is answered normally, then the connection closes (`connection: close`).
    static func lwsAwaitsUndeclaredBody(_ request: HTTPRequest) -> Bool {
        [.post, .put, .patch].contains(request.method) && request.headers["content-length"] == nil
    }

    /// Switches to writing `response`.
    mutating func respond(with response: PreparedResponse, closingConnection: Bool = false) {
        closeAfterResponse = closeAfterResponse || closingConnection
        output = ResponseOutput(response, omitsBody: request.method == .head, closesConnection: closeAfterResponse)
        stage = .responding
    }
}
