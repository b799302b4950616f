/// Standard base64 (RFC 4648 section 4), with padding: what the WebSocket handshake needs.
enum Base64 {
    private static let alphabet = Array("ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/".utf8)

    static func encode(_ bytes: [UInt8]) -> String {
        var output: [UInt8] = []
        output.reserveCapacity((bytes.count + 2) / 3 * 4)
        for start in stride(from: 0, to: bytes.count, by: 3) {
            let chunk = bytes[start..<min(start + 3, bytes.count)]
            let word = chunk.enumerated().reduce(UInt32(0)) { $0 | UInt32($1.element) << (16 - 8 * UInt32($1.offset)) }
            for index in 0..<4 {
                output.append(index <= chunk.count ? alphabet[Int(word >> (18 - 6 * UInt32(index)) & 0x3F)] : UInt8(ascii: "="))
            }
        }
        return String(decoding: output, as: UTF8.self)
    }

    /// The 6-bit value of an alphabet character, nil for anything else.
    static func value(of character: UInt8) -> UInt8? {
        switch character {
        case UInt8(ascii: "A")...UInt8(ascii: "Z"): character - UInt8(ascii: "A")
        case UInt8(ascii: "a")...UInt8(ascii: "z"): character - UInt8(ascii: "a") + 26
        case UInt8(ascii: "0")...UInt8(ascii: "9"): character - UInt8(ascii: "0") + 52
        case UInt8(ascii: "+"): 62
        case UInt8(ascii: "/"): 63
        default: nil
        }
    }
}
