import Testing
@testable import StorybookTransport

/// A client frame as a client must send it: masked, here with a key that changes every byte.
private func clientFrame(_ opcode: UInt8, _ payload: [UInt8], fin: Bool = true) -> [UInt8] {
    let key: [UInt8] = [0xA1, 0x5B, 0x3C, 0xF7]
    var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
    switch payload.count {
    case ..<126: frame.append(0x80 | UInt8(payload.count))
    case ..<65536: frame += [0x80 | 126, UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
    default: frame += [0x80 | 127] + (0..<8).reversed().map { UInt8(truncatingIfNeeded: payload.count >> ($0 * 8)) }
    }
    return frame + key + payload.enumerated().map { $0.element ^ key[$0.offset % 4] }
}

/// Feeds `bytes` to a reader in pieces of `size` bytes; returns the events in order.
private func events(_ bytes: [UInt8], pieces size: Int, limit: Int = 1 << 20) -> [WebSocketReader.Event] {
    var reader = WebSocketReader(limit: limit)
    var found: [WebSocketReader.Event] = []
    for start in stride(from: 0, to: bytes.count, by: size) {
        bytes[start..<min(start + size, bytes.count)].withUnsafeBytes { piece in
            reader.read(piece) { found.append($0) }
        }
    }
    return found
}

private func failure(_ code: UInt16, _ reason: String) -> WebSocketReader.Event {
    .fail(CloseFrame(code: code, reason: reason))
}

@Suite("Transport: WebSocket frames read by the transport")
struct WebSocketReaderTests {
    @Test(arguments: [1, 2, 3, 7, 64, 100_000])
    func framesReadTheSameHoweverTheBytesAreSplit(pieceSize: Int) {
        let long = [UInt8](repeating: UInt8(ascii: "x"), count: 70_000)
        let wire = clientFrame(1, Array("{\"a\":".utf8), fin: false)
            + clientFrame(9, Array("ping!".utf8))
            + clientFrame(0, Array("1}".utf8))
            + clientFrame(1, long)
            + clientFrame(10, [])
            + clientFrame(1, Array("é".utf8))
            + clientFrame(8, [0x03, 0xE8] + Array("bye".utf8))
            + clientFrame(1, Array("after the close".utf8))
        #expect(events(wire, pieces: pieceSize) == [
            .ping(Array("ping!".utf8)),
            .message(Array("{\"a\":1}".utf8)),
            .message(long),
            .pong,
            .message(Array("é".utf8)),
            .close(echo: [0x03, 0xE8] + Array("bye".utf8)),
        ])
    }

    @Test func anUnmaskedFrameFailsAtItsSecondByteWhateverItsOpcode() {
        for opcode: UInt8 in [0, 1, 2, 8, 9, 10] {
            let wire: [UInt8] = [0x80 | opcode, 0x02, 0x68, 0x69]
            #expect(events(wire, pieces: 1) == [failure(1002, "client frames must be masked")])
        }
        // After a valid masked message, the unmasked one still fails, and nothing after it is read.
        let wire = clientFrame(1, Array("ok".utf8)) + [0x81, 0x02, 0x68, 0x69] + clientFrame(1, Array("more".utf8))
        #expect(events(wire, pieces: 5) == [.message(Array("ok".utf8)), failure(1002, "client frames must be masked")])
    }

    @Test func everyFramingRuleHasItsCloseCode() {
        let cases: [([UInt8], WebSocketReader.Event)] = [
            ([0xC1, 0x80, 0, 0, 0, 0], failure(1002, "reserved bits set without an extension")),
            ([0x83, 0x80, 0, 0, 0, 0], failure(1002, "unknown opcode")),
            ([0x09, 0x80, 0, 0, 0, 0], failure(1002, "fragmented control frame")),
            ([0x89, 0xFE, 0x00, 0x7E], failure(1002, "control frame over 125 bytes")),
            ([0x81, 0xFF, 0x80, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0], failure(1002, "frame length with its top bit set")),
            (clientFrame(0, [0x78]), failure(1002, "a continuation frame without a message")),
            (clientFrame(1, [0x78], fin: false) + clientFrame(1, [0x79]), failure(1002, "a new message before the last one ended")),
            (clientFrame(2, [0, 1]), .fail(.unsupportedData)),
            (clientFrame(1, [0xFF, 0xFE]), failure(1007, "invalid UTF-8 in a text message")),
            (clientFrame(8, [0x03]), failure(1002, "close frame with a 1-byte payload")),
            (clientFrame(8, [0x13, 0x88]), failure(1002, "close code 5000 may not be sent")),
            (clientFrame(8, [0x03, 0xE8, 0xC0, 0xAF]), failure(1007, "invalid UTF-8 in a close reason")),
            (clientFrame(8, []), .close(echo: [])),
        ]
        for (wire, expected) in cases {
            #expect(events(wire, pieces: 1) == [expected], "\(wire.prefix(4))")
        }
    }

    @Test func aFrameThatWouldTakeTheMessagePastTheLimitFailsAsItsHeaderArrives() {
        // The header alone (no payload sent) is enough, for one frame and for the sum of a message's frames.
        #expect(events(Array(clientFrame(1, [UInt8](repeating: 0x61, count: 11)).prefix(8)), pieces: 1, limit: 10) == [.fail(.messageTooBig)])
        let split = clientFrame(1, [UInt8](repeating: 0x61, count: 6), fin: false) + Array(clientFrame(0, [UInt8](repeating: 0x61, count: 5)).prefix(6))
        #expect(events(split, pieces: 3, limit: 10) == [.fail(.messageTooBig)])
        #expect(events(clientFrame(1, [UInt8](repeating: 0x61, count: 10)), pieces: 4, limit: 10) == [.message([UInt8](repeating: 0x61, count: 10))])
    }

    @Test func utf8ValidationFollowsRFC3629() {
        let valid: [[UInt8]] = [[], Array("plain ascii, long enough for the fast path".utf8), Array("é€😀".utf8), [0xF4, 0x8F, 0xBF, 0xBF]]
        let invalid: [[UInt8]] = [
            [0xC0, 0xAF], [0xE0, 0x80, 0xAF],  // overlong
            [0xED, 0xA0, 0x80],  // a surrogate
            [0xF4, 0x90, 0x80, 0x80],  // above U+10FFFF
            [0xE2, 0x82], Array("ok".utf8) + [0x80],  // cut short, a stray continuation
        ]
        for bytes in valid { #expect(UTF8Validation.isValid(bytes), "\(bytes)") }
        for bytes in invalid { #expect(!UTF8Validation.isValid(bytes), "\(bytes)") }
    }

    @Test func theHandshakeAnswersWithTheRFCsAcceptValue() throws {
        // RFC 6455 1.3's example, and FIPS 180's "abc" for the SHA-1 underneath.
        #expect(WebSocketHandshake.acceptValue(for: "dGhlIHNhbXBsZSBub25jZQ==") == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        #expect(Base64.encode(SHA1.digest(Array("abc".utf8))) == "qZk+NkcGgWq6PiVxeFDCbJzQ2J0=")
        #expect(SHA1.digest(Array(repeating: UInt8(ascii: "a"), count: 1_000)).count == 20)
        #expect(Base64.encode(Array("any carnal pleas".utf8)) == "YW55IGNhcm5hbCBwbGVhcw==")
        let headers = ["sec-websocket-version": "13", "connection": "keep-alive, Upgrade", "sec-websocket-key": "dGhlIHNhbXBsZSBub25jZQ=="]
        let handshake = try WebSocketHandshake(headers: headers, subprotocol: "storybook.v1")
        #expect(String(decoding: handshake.responseHead, as: UTF8.self).contains("sec-websocket-protocol: storybook.v1\r\n"))
        var old = headers
        old["sec-websocket-version"] = "8"
        #expect(throws: WebSocketHandshake.Refusal.unsupportedVersion) { try WebSocketHandshake(headers: old, subprotocol: nil) }
        for key in ["c2hvcnQ=", "dGhlIHNhbXBsZSBub25jZR==", "dGhlIHNhbXBsZSBub25jZQ=", "dGhlIHNhbXBsZSBub25j*Q=="] {
            var bad = headers
            bad["sec-websocket-key"] = key
            #expect(throws: WebSocketHandshake.Refusal.malformed("Sec-WebSocket-Key must be 16 bytes in base64")) {
                try WebSocketHandshake(headers: bad, subprotocol: nil)
            }
        }
    }

    @Test func serverFramesCarryTheShortestLength() {
        for (count, header) in [(5, [0x81, 5]), (126, [0x81, 126, 0, 126]), (70_000, [0x81, 127, 0, 0, 0, 0, 0, 1, 0x11, 0x70])] as [(Int, [UInt8])] {
            let frame = OutboundFrame([UInt8](repeating: 7, count: count))
            #expect(frame.count == header.count + count)
            #expect(Array(UnsafeBufferPointer(start: frame.bytes, count: header.count)) == header)
        }
        let close = OutboundFrame(close: .messageTooBig)
        #expect(Array(UnsafeBufferPointer(start: close.bytes, count: close.count)) == [0x88, 17, 0x03, 0xF1] + Array("message too big".utf8))
    }
}
