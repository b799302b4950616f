/// A response's status and header lines, validated and serialized once.
///
/// `lines` are the application's headers as they go on the wire, `name: value\r\n` each, in order, after
/// the rules of ``HTTPResponse``: framing headers dropped, names that are not HTTP tokens and values
/// with line breaks left out. The transport writes the status line and `server` before them, then
/// `connection: close` when it closes and `content-length`. An answer served many times from memory
/// keeps its head, so that serving it is a copy rather than a header-by-header build.
package struct ResponseHead: Sendable, Equatable {
    package let status: Int
    package let lines: [UInt8]

    package init(status: Int, headers: [(String, String)]) {
        self.status = status
        var lines: [UInt8] = []
        for (name, value) in headers where !HTTPResponse.isFramingHeader(name) && Self.isValidHeader(name: name, value: value) {
            lines += name.utf8
            lines += ": ".utf8
            lines += value.utf8
            lines += "\r\n".utf8
        }
        self.lines = lines
    }

    /// 1xx, 204 and 304 answers carry no body, and no `content-length` either (RFC 9110, 8.6 and
    /// 15.4.5: for a 304 it would have to describe the representation the client already has).
    var forbidsBody: Bool {
        (100..<200).contains(status) || status == 204 || status == 304
    }

    /// Header names must be non-empty tokens and values free of line breaks (no header injection).
    private static func isValidHeader(name: String, value: String) -> Bool {
        let nameIsToken = !name.isEmpty && name.utf8.allSatisfy { tokenBytes[Int($0)] }
        let valueIsSafe = value.utf8.allSatisfy { $0 != 0x0D && $0 != 0x0A && $0 != 0x00 }
        return nameIsToken && valueIsSafe
    }

    /// Which bytes may appear in a header name (RFC 9110 token characters), built once.
    private static let tokenBytes: [Bool] = {
        let separators = Set("()<>@,;:\\\"/[]?={} \t".utf8)
        return (0..<256).map { byte in byte > 0x20 && byte < 0x7F && !separators.contains(UInt8(byte)) }
    }()
}
