/// Decodes a `Transfer-Encoding: chunked` request body (RFC 9112, section 7.1), which libwebsockets 4.1
/// hands over undecoded. Chunk extensions and trailer fields are skipped. The decoded size is capped.
struct ChunkedBodyDecoder {
    enum Outcome: Equatable {
        /// The body is not finished yet; feed more bytes.
        case needMore
        /// The final chunk and trailer section ended after `consumed` bytes of the last input.
        case finished(consumed: Int)
        /// The bytes are not a valid chunked body.
        case malformed
        /// The decoded body would exceed the limit.
        case tooLarge
    }

    private enum State: Equatable {
        case size(value: Int, digits: Int, inExtension: Bool)
        case sizeLineFeed(value: Int)
        case data(remaining: Int)
        case dataCarriageReturn
        case dataLineFeed
        case trailerLineStart
        case trailerLine
        case trailerLineFeed
        case finalLineFeed
        case done
        case failed(Outcome)
    }

    /// Longest chunk-size line or trailer line accepted (extensions included).
    private static let maxLineLength = 4096

    let limit: Int
    private(set) var body: [UInt8] = []
    private var state = State.size(value: 0, digits: 0, inExtension: false)
    private var lineLength = 0

    init(limit: Int) {
        self.limit = limit
    }

    var isFinished: Bool { state == .done }

    /// The decoded body so far (moves it out).
    mutating func takeBody() -> [UInt8] {
        let decoded = body
        body = []
        return decoded
    }

    /// Feeds the next bytes of the body as they arrive.
    mutating func decode(_ bytes: some Collection<UInt8>) -> Outcome {
        if case .failed(let outcome) = state { return outcome }
        if state == .done { return .finished(consumed: 0) }
        var index = bytes.startIndex
        var consumed = 0
        while index != bytes.endIndex {
            if case .data(let remaining) = state {
                let available = bytes.distance(from: index, to: bytes.endIndex)
                let take = min(remaining, available)
                let end = bytes.index(index, offsetBy: take)
                body.append(contentsOf: bytes[index..<end])
                index = end
                consumed += take
                state = remaining == take ? .dataCarriageReturn : .data(remaining: remaining - take)
                continue
            }
            let byte = bytes[index]
            index = bytes.index(after: index)
            consumed += 1
            if let failure = step(byte) {
                state = .failed(failure)
                return failure
            }
            if state == .done {
                return .finished(consumed: consumed)
            }
        }
        return .needMore
    }

    /// Advances the state machine by one framing byte; returns a failure, if any.
    private mutating func step(_ byte: UInt8) -> Outcome? {
        let cr: UInt8 = 0x0D, lf: UInt8 = 0x0A
        switch state {
        case .size(let value, let digits, let inExtension):
            lineLength += 1
            guard lineLength <= Self.maxLineLength else { return .malformed }
            if byte == cr {
                guard digits > 0 else { return .malformed }
                state = .sizeLineFeed(value: value)
            } else if inExtension {
                break
            } else if let digit = Self.hexValue(byte) {
                guard value <= (Int.max - digit) / 16 else { return .tooLarge }
                let newValue = value * 16 + digit
                guard newValue <= limit - body.count else { return .tooLarge }
                state = .size(value: newValue, digits: digits + 1, inExtension: false)
            } else if (byte == UInt8(ascii: ";") || byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")), digits > 0 {
                state = .size(value: value, digits: digits, inExtension: true)
            } else {
                return .malformed
            }
        case .sizeLineFeed(let value):
            guard byte == lf else { return .malformed }
            lineLength = 0
            state = value == 0 ? .trailerLineStart : .data(remaining: value)
        case .dataCarriageReturn:
            guard byte == cr else { return .malformed }
            state = .dataLineFeed
        case .dataLineFeed:
            guard byte == lf else { return .malformed }
            state = .size(value: 0, digits: 0, inExtension: false)
        case .trailerLineStart:
            lineLength = 0
            state = byte == cr ? .finalLineFeed : .trailerLine
        case .trailerLine:
            lineLength += 1
            guard lineLength <= Self.maxLineLength else { return .malformed }
            if byte == cr {
                state = .trailerLineFeed
            }
        case .trailerLineFeed:
            guard byte == lf else { return .malformed }
            state = .trailerLineStart
        case .finalLineFeed:
            guard byte == lf else { return .malformed }
            state = .done
        case .data, .done, .failed:
            preconditionFailure("handled by decode(_:)")
        }
        return nil
    }

    private static func hexValue(_ byte: UInt8) -> Int? {
        switch byte {
        case UInt8(ascii: "0")...UInt8(ascii: "9"): Int(byte - UInt8(ascii: "0"))
        case UInt8(ascii: "a")...UInt8(ascii: "f"): Int(byte - UInt8(ascii: "a")) + 10
        case UInt8(ascii: "A")...UInt8(ascii: "F"): Int(byte - UInt8(ascii: "A")) + 10
        default: nil
        }
    }
}
