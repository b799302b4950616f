/// One line of a projection, written straight into bytes by string interpolation: its literal
/// pieces and interpolated strings are copied, numbers are written as digits, and the projections
/// add their own escaping interpolations (`\(html:)`, `\(quoted:)`).
///
/// A line built as a `String` costs an append per piece, each going through `String`'s general
/// machinery (about 250 instructions): an edit of the profile card made about a hundred such appends
/// for its text and HTML.
struct ProjectionLine: ExpressibleByStringInterpolation {
    /// The line's UTF-8 bytes, without indentation or newline.
    let bytes: [UInt8]

    init(stringLiteral value: String) {
        bytes = Array(value.utf8)
    }

    init(stringInterpolation: StringInterpolation) {
        bytes = stringInterpolation.bytes
    }

    struct StringInterpolation: StringInterpolationProtocol {
        var bytes: [UInt8] = []

        init(literalCapacity: Int, interpolationCount: Int) {
            bytes.reserveCapacity(literalCapacity + 16 * interpolationCount)
        }

        mutating func appendLiteral(_ literal: String) {
            append(literal)
        }

        /// A string as it is: markup or text the projection made (attributes, command names), or text
        /// that needs no escape where it goes.
        mutating func appendInterpolation(_ text: String) {
            append(text)
        }

        /// Copies the bytes of `text` (a native or literal string's are contiguous: one copy).
        private mutating func append(_ text: String) {
            guard !text.isEmpty else { return }
            if text.utf8.withContiguousStorageIfAvailable({ bytes.append(contentsOf: $0) }) == nil {
                bytes.append(contentsOf: text.utf8)
            }
        }

        mutating func appendInterpolation(_ number: Int) {
            JSONValue.writeInteger(Int64(number), into: &bytes)
        }
    }
}
