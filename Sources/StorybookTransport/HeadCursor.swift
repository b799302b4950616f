/// Where the next byte of a response head goes in the scratch buffer, and where the room ends.
struct HeadCursor {
    var position: UnsafeMutablePointer<UInt8>
    let end: UnsafeMutablePointer<UInt8>

    init(start: UnsafeMutablePointer<UInt8>, end: UnsafeMutablePointer<UInt8>) {
        position = start
        self.end = end
    }

    @inline(__always)
    mutating func append(_ bytes: UnsafeBufferPointer<UInt8>) throws(TransportError) {
        guard let base = bytes.baseAddress else { return }
        guard end - position >= bytes.count else { throw .callFailed("response head", code: bytes.count) }
        position.update(from: base, count: bytes.count)
        position += bytes.count
    }

    mutating func append(_ bytes: [UInt8]) throws(TransportError) {
        try bytes.withUnsafeBufferPointer { buffer throws(TransportError) in try append(buffer) }
    }

    @inline(__always)
    mutating func append(_ text: StaticString) throws(TransportError) {
        try append(UnsafeBufferPointer(start: text.utf8Start, count: text.utf8CodeUnitCount))
    }

    /// `value` (not negative) in decimal digits.
    mutating func appendDecimal(_ value: Int) throws(TransportError) {
        var digits = 1
        var rest = value / 10
        while rest > 0 {
            digits += 1
            rest /= 10
        }
        guard end - position >= digits else { throw .callFailed("response head", code: digits) }
        rest = value
        for index in stride(from: digits - 1, through: 0, by: -1) {
            position[index] = UInt8(ascii: "0") + UInt8(rest % 10)
            rest /= 10
        }
        position += digits
    }
}
