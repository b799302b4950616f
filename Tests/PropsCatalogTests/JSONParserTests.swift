@testable import PropsCatalog
import Testing

/// Strings in JSON text must be well-formed UTF-8 (RFC 8259 section 8.1): the parser keeps them as
/// they are or refuses the document.
@Suite struct JSONParserTests {
    /// The bytes of a JSON document that is one string holding `content` (and, with `escaped`, a
    /// `\n` escape first, which takes the parser's path for strings with escapes).
    private static func document(_ content: [UInt8], escaped: Bool = false) -> [UInt8] {
        [UInt8(ascii: "\"")] + (escaped ? Array(#"\n"#.utf8) : []) + content + [UInt8(ascii: "\"")]
    }

    @Test(arguments: [false, true])
    func wellFormedStringsParseToTheirText(escaped: Bool) throws {
        for text in ["", "plain", "café", "日本語", "😀 and 👩‍👩‍👧", String(repeating: "ü", count: 300)] {
            let value = try JSONParser.parse(Self.document(Array(text.utf8), escaped: escaped))
            #expect(value == .string((escaped ? "\n" : "") + text))
        }
    }

    /// Ill-formed sequences, among them the ones whose repair has as many bytes as they have (a
    /// 4-byte sequence cut after its third byte is one U+FFFD, 3 bytes, when repaired).
    @Test(arguments: [false, true])
    func illFormedStringsAreRefused(escaped: Bool) {
        let illFormed: [[UInt8]] = [
            [0x80], [0xBF], [0xC0, 0xAF], [0xC1, 0xBF], [0xE0, 0x80, 0x80], [0xED, 0xA0, 0x80], [0xED, 0xBF, 0xBF],
            [0xF0, 0x80, 0x80, 0x80], [0xF4, 0x90, 0x80, 0x80], [0xF5, 0x80, 0x80, 0x80], [0xFE], [0xFF],
            [0xC3], [0xE2, 0x82], [0xF0, 0x9F, 0x98], [0xF0, 0x9F, 0x98, 0x41], [0x61, 0xF0, 0x90, 0x80, 0x62],
            [0xEF, 0xBF, 0xBD, 0xF0, 0x90, 0x80],
        ]
        for bytes in illFormed {
            #expect(throws: JSONParseError.self, "\(bytes)") { try JSONParser.parse(Self.document(bytes, escaped: escaped)) }
        }
    }

    /// Random byte strings (no quote, backslash or control character) are taken exactly when the
    /// standard library's validation takes them, and then hold the same text.
    @Test func randomBytesAreJudgedLikeTheStandardLibrary() throws {
        var generator = SeededGenerator(seed: 18)
        let interesting: [UInt8] = [0x41, 0x7E, 0x80, 0x8F, 0x90, 0x9F, 0xA0, 0xBF, 0xC0, 0xC2, 0xDF, 0xE0, 0xE1, 0xED, 0xEF, 0xF0, 0xF4, 0xF5, 0xFF]
        var accepted = 0
        for _ in 0..<4_000 {
            let count = Int.random(in: 1...6, using: &generator)
            let bytes = (0..<count).map { _ in interesting.randomElement(using: &generator)! }
            let expected = String(validating: bytes, as: UTF8.self)
            for escaped in [false, true] {
                let parsed = try? JSONParser.parse(Self.document(bytes, escaped: escaped))
                #expect(parsed == expected.map { .string((escaped ? "\n" : "") + $0) }, "\(bytes)")
            }
            if expected != nil { accepted += 1 }
        }
        #expect(accepted > 100)  // both verdicts were tried
    }

    @Test func anArrayAndOtherCollectionsParseAlike() throws {
        let text = #"{"type":"patch","patch":[{"op":"replace","path":"/name","value":"Ada"}],"ref":"zq1"}"#
        let bytes = Array(text.utf8)
        #expect(try JSONParser.parse(bytes) == JSONParser.parse(bytes[...]))
        #expect(try JSONParser.parse(bytes) == JSONParser.parse(text))
    }
}
