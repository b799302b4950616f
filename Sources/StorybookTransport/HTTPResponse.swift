/// The answer to one ``HTTPRequest``.
///
/// The transport owns the framing: it adds `content-length` itself (also for `HEAD`, whose body it does
/// not send; never for 1xx, 204 and 304, which have no body) and drops any `content-length`,
/// `transfer-encoding` or `connection` header given here. Headers whose name is not an HTTP token or
/// whose value contains a line break are left out.
package struct HTTPResponse: Sendable {
    package var status: Int
    /// Header names and values, written in this order. Names are sent as given (HTTP/1.1 names are
    /// case-insensitive; lowercase is conventional).
    package var headers: [(String, String)]
    package var body: [UInt8]

    package init(status: Int, headers: [(String, String)] = [], body: [UInt8] = []) {
        self.status = status
        self.headers = headers
        self.body = body
    }

    /// Headers the transport manages itself and never copies from a response.
    static let framingHeaderNames: Set<String> = ["content-length", "transfer-encoding", "connection"]

    /// The headers to send: everything except the framing headers the transport writes itself.
    var applicationHeaders: [(String, String)] {
        headers.filter { !Self.isFramingHeader($0.0) }
    }

    /// Whether `name` is one of the framing headers, in any case.
    static func isFramingHeader(_ name: String) -> Bool {
        framingHeaderNames.contains(name.lowercased())
    }
}

extension HTTPResponse {
    /// A JSON error in the contract's shape, `{"error":{"code":"...","message":"..."}}`, for the answers
    /// the transport gives on its own (413 too large, 400 malformed framing, 404 on a WebSocket upgrade
    /// outside the WebSocket path, ...).
    static func transportError(status: Int, code: String, message: String) -> HTTPResponse {
        let body = #"{"error":{"code":"# + jsonString(code) + #","message":"# + jsonString(message) + "}}"
        return HTTPResponse(status: status, headers: [("content-type", "application/json; charset=utf-8")], body: Array(body.utf8))
    }

    /// `text` as a JSON string literal; the transport knows no JSON library, only how to quote.
    static func jsonString(_ text: String) -> String {
        var quoted = "\""
        for scalar in text.unicodeScalars {
            switch scalar {
            case "\"": quoted += "\\\""
            case "\\": quoted += "\\\\"
            case "\n": quoted += "\\n"
            case "\r": quoted += "\\r"
            case "\t": quoted += "\\t"
            case _ where scalar.value < 0x20:
                let hex = String(scalar.value, radix: 16)
                quoted += "\\u" + String(repeating: "0", count: 4 - hex.count) + hex
            default: quoted.unicodeScalars.append(scalar)
            }
        }
        return quoted + "\""
    }
}
