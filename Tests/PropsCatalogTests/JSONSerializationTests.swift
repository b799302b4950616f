import Foundation
@testable import PropsCatalog
import Testing

@Suite struct JSONSerializationTests {
    @Test func stringsEscapeQuotesControlsAndTheScriptOpener() {
        let value = JSONValue.string("a\"b\\c\nd\re\tf\u{01}g\u{7F}h</script>ü😀")
        #expect(value.serialized() == #""a\"b\\c\nd\re\tf\u0001g\u007fh\u003c/script>ü😀""#)
    }

    @Test func longStringsEscapeLikeShortOnes() {
        // 256 bytes and more take the two-pass path (HTML projections), shorter ones the run-by-run one.
        let piece = "a\"b\\c\nd\re\tf\u{01}g\u{7F}h</script>ü😀"
        let expected = #"a\"b\\c\nd\re\tf\u0001g\u007fh\u003c/script>ü😀"#
        for count in [1, 7, 8, 9, 40] {
            let text = String(repeating: piece, count: count)
            #expect(JSONValue.string(text).serialized() == "\"" + String(repeating: expected, count: count) + "\"")
            #expect(JSONValue.serializedString(text) == Array(("\"" + String(repeating: expected, count: count) + "\"").utf8))
        }
    }

    @Test func stringsMadeOnlyOfEscapesOrOfNone() {
        #expect(JSONValue.string("").serialized() == #""""#)
        #expect(JSONValue.string("<<\"").serialized() == #""\u003c\u003c\"""#)
        #expect(JSONValue.string("plain text").serialized() == #""plain text""#)
    }

    @Test func serializedTextParsesBackToTheSameValue() throws {
        let value: JSONValue = ["b": [1, 2.5, "x\u{0}y"], "a": ["nested": .null, "t": true], "ä": "<p>", "A": false]
        let text = value.serialized()
        #expect(text == #"{"A":false,"a":{"nested":null,"t":true},"b":[1,2.5,"x\u0000y"],"ä":"\u003cp>"}"#)
        #expect(try JSONParser.parse(text) == value)
    }

    @Test func datesFormatLikeFoundationsISO8601() {
        let whole = ISO8601DateFormatter()
        let fractional = ISO8601DateFormatter()
        fractional.formatOptions = [.withInternetDateTime, .withFractionalSeconds]
        var generator = SystemRandomNumberGenerator()
        // 1601..2400, leap years and day boundaries included, both sides of 1970.
        var seconds: [Int64] = [0, -1, 951_782_400, 951_868_799, 4_107_542_399, -11_644_473_600, 13_569_465_599]
        seconds += (0..<2000).map { _ in Int64.random(in: -11_644_473_600...13_569_465_599, using: &generator) }
        for second in seconds {
            // Binary-exact fractions: Foundation truncates where this formatter rounds.
            for milliseconds in [0, 250, 500, 750] as [Int64] {
                let date = Date(timeIntervalSince1970: TimeInterval(second) + TimeInterval(milliseconds) / 1000)
                let expected = milliseconds == 0 ? whole.string(from: date) : fractional.string(from: date)
                #expect(ISO8601.string(from: date) == expected, "\(second).\(milliseconds)")
            }
        }
    }

    @Test func integersAndLiteralsAreWrittenWithoutAString() {
        for value in [0, 9, 10, -1, -9, -10, 99, 1_000_000_007, Int64.max, Int64.min, Int64.min + 1] as [Int64] {
            #expect(JSONValue.integer(value).serialized() == String(value))
        }
        #expect(JSONValue.array([true, false, nil]).serialized() == "[true,false,null]")
    }

    @Test func formattedDatesParseBackToTheSameText() throws {
        for text in ["2026-11-22T10:00:00Z", "2026-11-22T10:00:00.250Z", "1969-12-31T23:59:59.999Z", "2000-02-29T00:00:00.001Z"] {
            let date = try #require(ISO8601.date(from: text))
            #expect(ISO8601.string(from: date) == text)
        }
    }
}

@Suite struct JSONPatchSerializationTests {
    @Test func patchBytesAreThoseOfItsJSONValue() throws {
        let patch = try JSONPatch(json: JSONParser.parse(#"""
            [{"op": "replace", "path": "/name", "value": "Ada \"<b>\""},
             {"op": "add", "path": "/tags/-", "value": {"b": [1, 2.5e300, null], "a": true}},
             {"op": "remove", "path": "/a~1b/0"},
             {"op": "move", "from": "/x", "path": "/y"},
             {"op": "copy", "from": "/~0t", "path": "/z"},
             {"op": "test", "path": "", "value": 18446744073709551615}]
            """#))
        #expect(patch.serializedBytes() == patch.json.serializedBytes())
        // Pointers copied as they are, and those with something to escape for the pointer or for JSON.
        let tokens = ["plain", "", "ü😀", "a\"b", "<i>", "t\u{01}ab", "x/y", "~", "back\\slash"]
        for token in tokens {
            let pointer = JSONPointer(tokens: ["items", "0", token])
            let tricky = JSONPatch(operations: [
                .replace(path: pointer, value: .integer(Int64.min)),
                .move(from: pointer, path: JSONPointer(tokens: [token])),
            ])
            #expect(tricky.serializedBytes() == tricky.json.serializedBytes(), "\(token)")
        }
        #expect(JSONPatch(operations: []).serializedBytes() == Array("[]".utf8))
    }
}

@Suite struct JSONObjectWriterTests {
    @Test func membersGiveTheBytesOfTheEquivalentValue() {
        for integer in [0, 7, 10, -1, 123_456, Int.max, Int.min] {
            var writer = JSONObjectWriter(capacity: 8)
            writer.member("a", bool: true)
            writer.member("b", integer: integer)
            writer.member("c", json: Array("[1,2]".utf8))
            writer.member("d", .object(["y": "<", "x": nil]))
            writer.member(named: "e\"<", string: "ü\n")
            writer.member("f", string: "plain")
            writer.member("g", bool: false)
            let expected: JSONValue = [
                "a": true, "b": .integer(Int64(integer)), "c": [1, 2], "d": ["y": "<", "x": nil], "e\"<": "ü\n", "f": "plain", "g": false,
            ]
            #expect(writer.finish() == expected.serializedBytes(), "\(integer)")
        }
    }

    @Test func anEmptyObjectAndOneMember() {
        var empty = JSONObjectWriter()
        #expect(empty.finish() == Array("{}".utf8))
        var writer = JSONObjectWriter()
        writer.member("only", integer: 1)
        #expect(writer.finish() == Array(#"{"only":1}"#.utf8))
    }
}
