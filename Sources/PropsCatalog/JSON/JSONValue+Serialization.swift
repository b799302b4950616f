extension JSONValue {
    /// Serializes to JSON text with sorted keys: equal values always give equal bytes.
    /// - Parameter pretty: two-space indentation and a space after colons, for files meant to be read.
    public func serialized(pretty: Bool = false) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(into: &bytes, pretty: pretty, indent: 0)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Serializes to UTF-8 bytes with sorted keys.
    public func serializedBytes() -> [UInt8] {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(256)
        write(into: &bytes, pretty: false, indent: 0)
        return bytes
    }

    /// Appends the compact serialization (sorted keys) to `out`.
    func write(into out: inout [UInt8]) {
        write(into: &out, pretty: false, indent: 0)
    }

    private func write(into out: inout [UInt8], pretty: Bool, indent: Int) {
        switch self {
        case .null: Self.writeLiteral("null", into: &out)
        case .bool(let value): Self.writeLiteral(value ? "true" : "false", into: &out)
        case .integer(let value): Self.writeInteger(value, into: &out)
        case .double(let value): out.append(contentsOf: Self.format(value).utf8)
        case .exactNumber(let text): out.append(contentsOf: text.utf8)
        case .string(let value): Self.writeString(value, into: &out)
        case .array(let elements):
            guard !elements.isEmpty else { out.append(contentsOf: "[]".utf8); return }
            out.append(UInt8(ascii: "["))
            for (index, element) in elements.enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { Self.newline(into: &out, indent: indent + 1) }
                element.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { Self.newline(into: &out, indent: indent) }
            out.append(UInt8(ascii: "]"))
        case .object(let members):
            guard !members.isEmpty else { out.append(contentsOf: "{}".utf8); return }
            out.append(UInt8(ascii: "{"))
            for (index, member) in members.sorted(by: { $0.key < $1.key }).enumerated() {
                if index > 0 { out.append(UInt8(ascii: ",")) }
                if pretty { Self.newline(into: &out, indent: indent + 1) }
                Self.writeString(member.key, into: &out)
                out.append(UInt8(ascii: ":"))
                if pretty { out.append(UInt8(ascii: " ")) }
                member.value.write(into: &out, pretty: pretty, indent: indent + 1)
            }
            if pretty { Self.newline(into: &out, indent: indent) }
            out.append(UInt8(ascii: "}"))
        }
    }

    private static func newline(into out: inout [UInt8], indent: Int) {
        out.append(UInt8(ascii: "\n"))
        out.append(contentsOf: repeatElement(UInt8(ascii: " "), count: indent * 2))
    }

    /// Shortest round-tripping form; non-finite numbers have no JSON form and become null.
    static func format(_ value: Double) -> String {
        guard value.isFinite else { return "null" }
        return "\(value)"
    }

    private static let hexDigits = Array("0123456789abcdef".utf8)

    /// Appends `string` as a JSON string literal. A short string copies its runs of bytes that need no
    /// escape at once; a long one (an HTML projection, dense in `<` and `"`) is written in two passes,
    /// its escaped length first and then every byte in place, where one small append per run cost
    /// about 50 instructions a byte.
    static func writeString(_ string: String, into out: inout [UInt8]) {
        var string = string
        string.withUTF8 { bytes in
            if bytes.count < 256 {
                out.append(UInt8(ascii: "\""))
                var runStart = 0
                for index in bytes.indices where needsEscape(bytes[index]) {
                    out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart..<index]))
                    appendEscape(bytes[index], to: &out)
                    runStart = index + 1
                }
                out.append(contentsOf: UnsafeBufferPointer(rebasing: bytes[runStart...]))
                out.append(UInt8(ascii: "\""))
                return
            }
            var length = bytes.count + 2
            for byte in bytes where needsEscape(byte) { length += escapeLength(byte) - 1 }
            let literal = [UInt8](unsafeUninitializedCapacity: length) { buffer, initialized in
                var at = 0
                buffer[at] = UInt8(ascii: "\""); at += 1
                for byte in bytes {
                    if needsEscape(byte) {
                        writeEscape(byte, into: buffer, at: &at)
                    } else {
                        buffer[at] = byte; at += 1
                    }
                }
                buffer[at] = UInt8(ascii: "\""); at += 1
                initialized = at
            }
            out.append(contentsOf: literal)
        }
    }

    /// Appends the escape of `byte` (the bytes `writeEscape` writes).
    private static func appendEscape(_ byte: UInt8, to out: inout [UInt8]) {
        out.append(UInt8(ascii: "\\"))
        switch byte {
        case UInt8(ascii: "\""): out.append(UInt8(ascii: "\""))
        case UInt8(ascii: "\\"): out.append(UInt8(ascii: "\\"))
        case 0x0A: out.append(UInt8(ascii: "n"))
        case 0x0D: out.append(UInt8(ascii: "r"))
        case 0x09: out.append(UInt8(ascii: "t"))
        default:
            out.append(contentsOf: [UInt8(ascii: "u"), UInt8(ascii: "0"), UInt8(ascii: "0"), hexDigits[Int(byte >> 4)], hexDigits[Int(byte & 0xF)]])
        }
    }

    /// How many bytes `writeEscape` writes for `byte`.
    private static func escapeLength(_ byte: UInt8) -> Int {
        switch byte {
        case UInt8(ascii: "\""), UInt8(ascii: "\\"), 0x0A, 0x0D, 0x09: 2
        default: 6
        }
    }

    /// Writes the escape of `byte` at `index` (the buffer has room: `escapeLength`) and moves past it.
    private static func writeEscape(_ byte: UInt8, into buffer: UnsafeMutableBufferPointer<UInt8>, at index: inout Int) {
        buffer[index] = UInt8(ascii: "\\")
        let second: UInt8
        switch byte {
        case UInt8(ascii: "\""): second = UInt8(ascii: "\"")
        case UInt8(ascii: "\\"): second = UInt8(ascii: "\\")
        case 0x0A: second = UInt8(ascii: "n")
        case 0x0D: second = UInt8(ascii: "r")
        case 0x09: second = UInt8(ascii: "t")
        default:
            // `<` keeps "</script>" inert wherever JSON is embedded in HTML; controls and DEL as \u00XX.
            buffer[index + 1] = UInt8(ascii: "u")
            buffer[index + 2] = UInt8(ascii: "0")
            buffer[index + 3] = UInt8(ascii: "0")
            buffer[index + 4] = hexDigits[Int(byte >> 4)]
            buffer[index + 5] = hexDigits[Int(byte & 0xF)]
            index += 6
            return
        }
        buffer[index + 1] = second
        index += 2
    }

    /// Appends a literal's bytes (`true`, `null`) at once: appending a `String`'s UTF-8 view went
    /// byte by byte through its iterator.
    static func writeLiteral(_ literal: StaticString, into out: inout [UInt8]) {
        literal.withUTF8Buffer { out.append(contentsOf: $0) }
    }

    /// Appends `value` in decimal, without making a `String` of it first.
    static func writeInteger(_ value: Int64, into out: inout [UInt8]) {
        if value >= 0, value < 10 {
            out.append(UInt8(ascii: "0") + UInt8(value))
            return
        }
        // 19 digits and a sign at most (Int64.min is -9223372036854775808).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            var magnitude = value.magnitude
            var start = buffer.count
            repeat {
                start -= 1
                buffer[start] = UInt8(ascii: "0") + UInt8(magnitude % 10)
                magnitude /= 10
            } while magnitude > 0
            if value < 0 {
                start -= 1
                buffer[start] = UInt8(ascii: "-")
            }
            out.append(contentsOf: UnsafeBufferPointer(rebasing: buffer[start...]))
        }
    }

    static func needsEscape(_ byte: UInt8) -> Bool {
        byte < 0x20 || byte == UInt8(ascii: "\"") || byte == UInt8(ascii: "\\") || byte == UInt8(ascii: "<") || byte == 0x7F
    }
}
