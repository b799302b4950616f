/// A response on its way out, possibly over several writeable callbacks.
struct ResponseOutput {
    let response: PreparedResponse
    /// `HEAD`: send the head only, with the length the body would have.
    let omitsBody: Bool
    /// Send `connection: close` and close once written.
    let closesConnection: Bool
    var headWritten = false
    var bodyOffset = 0

    init(_ response: PreparedResponse, omitsBody: Bool, closesConnection: Bool) {
        self.response = response
        self.omitsBody = omitsBody
        self.closesConnection = closesConnection
    }

    init(_ response: HTTPResponse, omitsBody: Bool, closesConnection: Bool) {
        self.init(PreparedResponse(response), omitsBody: omitsBody, closesConnection: closesConnection)
    }

    /// How many body bytes go on the wire.
    var bodyBytesToSend: Int { omitsBody || response.head.forbidsBody ? 0 : response.body.count }
}
