/// The server's half of the opening handshake (RFC 6455 4.2): checks the client's upgrade request and
/// writes the `101 Switching Protocols` answer. The transport completes the handshake itself, not lws,
/// because it reads the frames that follow itself (see `WebSocketReader`).
struct WebSocketHandshake: Equatable {
    /// Why an upgrade request cannot be answered with 101.
    enum Refusal: Error, Equatable {
        /// `Sec-WebSocket-Version` is missing or not 13: answered 426 with `Sec-WebSocket-Version: 13`.
        case unsupportedVersion
        /// A required header is missing or malformed: answered 400 with this message.
        case malformed(String)
    }

    /// The value of `Sec-WebSocket-Accept`.
    let accept: String
    /// The subprotocol to confirm, if the client offered ours.
    let subprotocol: String?

    /// The handshake for a request with these (lower-cased) headers.
    init(headers: [String: String], subprotocol: String?) throws(Refusal) {
        guard headers["sec-websocket-version"]?.trimmingSpaces == "13" else { throw .unsupportedVersion }
        let connectionTokens = (headers["connection"] ?? "").split(separator: ",").map { String($0).trimmingSpaces.lowercased() }
        guard connectionTokens.contains("upgrade") else {
            throw .malformed("a WebSocket upgrade needs `Connection: Upgrade`")
        }
        guard let key = headers["sec-websocket-key"]?.trimmingSpaces, Self.isValidKey(key) else {
            throw .malformed("Sec-WebSocket-Key must be 16 bytes in base64")
        }
        self.accept = Self.acceptValue(for: key)
        self.subprotocol = subprotocol
    }

    /// The response head that completes the handshake.
    var responseHead: [UInt8] {
        var head = "HTTP/1.1 101 Switching Protocols\r\nupgrade: websocket\r\nconnection: Upgrade\r\n"
        head += "sec-websocket-accept: \(accept)\r\n"
        if let subprotocol { head += "sec-websocket-protocol: \(subprotocol)\r\n" }
        head += "server: storybook\r\n\r\n"
        return Array(head.utf8)
    }

    /// `Sec-WebSocket-Accept` for a key: base64 of the SHA-1 of the key and the protocol's GUID.
    static func acceptValue(for key: String) -> String {
        Base64.encode(SHA1.digest(Array((key + "258EAFA5-E914-47DA-95CA-C5AB0DC85B11").utf8)))
    }

    /// A key is the base64 of 16 bytes: 22 characters of the alphabet and `==` (the last of the 22
    /// carries 2 bits, so its 4 low bits are zero).
    static func isValidKey(_ key: String) -> Bool {
        let bytes = Array(key.utf8)
        guard bytes.count == 24, bytes[22] == UInt8(ascii: "="), bytes[23] == UInt8(ascii: "=") else { return false }
        guard bytes[..<22].allSatisfy({ Base64.value(of: $0) != nil }) else { return false }
        return Base64.value(of: bytes[21])! & 0x0F == 0
    }
}
