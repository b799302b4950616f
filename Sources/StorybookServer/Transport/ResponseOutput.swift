/// A response on its way out, possibly over several writeable callbacks.
struct ResponseOutput {
    let response: HTTPResponse
    /// `HEAD`: send the head only, with the length the body would have.
    let omitsBody: Bool
    /// Send `connection: close` and close once written.
    let closesConnection: Bool
    var headWritten = false
    var bodyOffset = 0

    init(_ response: HTTPResponse, omitsBody: Bool, closesConnection: Bool) {
        self.response = response
        self.omitsBody = omitsBody
        self.closesConnection = closesConnection
    }

    /// 1xx, 204 and 304 answers carry no body, and no `content-length` either (RFC 9110, 8.6 and
    /// 15.4.5: for a 304 it would have to describe the representation the client already has).
    var statusForbidsBody: Bool {
        let status = response.status
        return (100..<200).contains(status) || status == 204 || status == 304
    }

    /// How many body bytes go on the wire.
    var bodyBytesToSend: Int { omitsBody || statusForbidsBody ? 0 : response.body.count }

    var isFinished: Bool { headWritten && bodyOffset == bodyBytesToSend }
}
