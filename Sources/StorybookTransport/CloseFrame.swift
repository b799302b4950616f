/// A WebSocket close status and reason, the reason cut to the 123 bytes a close frame can carry
/// (at a UTF-8 character boundary).
struct CloseFrame: Equatable {
    static let maxReasonBytes = 123

    let code: UInt16
    let reason: [UInt8]

    init(code: UInt16, reason: String) {
        self.code = code
        var bytes: [UInt8] = []
        for character in reason {
            let encoded = Array(String(character).utf8)
            guard bytes.count + encoded.count <= Self.maxReasonBytes else { break }
            bytes += encoded
        }
        self.reason = bytes
    }

    static let goingAway = CloseFrame(code: 1001, reason: "server shutting down")
    static let unsupportedData = CloseFrame(code: 1003, reason: "binary messages are not supported")
    static let messageTooBig = CloseFrame(code: 1009, reason: "message too big")
    static let queueOverflow = CloseFrame(code: 1008, reason: "too many queued messages")

    /// 1002, answered to a close frame whose code may not be sent.
    static let protocolError = 1002

    /// Whether a peer may send `code` in a close frame (RFC 6455 7.4): the defined codes 1000-1003,
    /// 1007-1011, the registered 1012-1014, and 3000-4999 for libraries and applications.
    static func isValidReceivedCode(_ code: Int) -> Bool {
        switch code {
        case 1000...1003, 1007...1014, 3000...4999: true
        default: false
        }
    }
}
