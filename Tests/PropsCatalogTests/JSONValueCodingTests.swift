import Foundation
@testable import PropsCatalog
import Testing

/// The encoder's and decoder's containers beyond what synthesized Codable uses: nested containers,
/// super encoders, a key written twice, and the coding paths that code and errors see.
@Suite struct JSONValueCodingTests {
    /// Writes through every kind of container the keyed one hands out.
    struct Nested: Encodable {
        enum Keys: String, CodingKey { case a, b, c, d, e, `super` }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: Keys.self)
            try container.encode(1, forKey: .a)
            try container.encode(2, forKey: .a)
            var inner = container.nestedContainer(keyedBy: Keys.self, forKey: .b)
            try inner.encode("x", forKey: .a)
            var list = container.nestedUnkeyedContainer(forKey: .c)
            try list.encode(true)
            var element = list.nestedContainer(keyedBy: Keys.self)
            try element.encode(3.5, forKey: .a)
            try list.encodeNil()
            try container.encode(4, forKey: .d)
            _ = container.superEncoder(forKey: .d)
            try container.encode(5, forKey: .e)
            var replaced = container.nestedContainer(keyedBy: Keys.self, forKey: .e)
            try replaced.encode(6, forKey: .a)
            var parent = container.superEncoder().singleValueContainer()
            try parent.encode("p")
        }
    }

    /// Encodes the coding path it is encoded at, as `key/key#intValue of the last key`.
    struct PathProbe: Codable {
        var path = ""
        init() {}

        init(from decoder: any Decoder) throws {
            path = Self.describe(decoder.codingPath)
            _ = try decoder.singleValueContainer().decode(Int.self)
        }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(Self.describe(encoder.codingPath))
        }

        static func describe(_ path: [any CodingKey]) -> String {
            path.map(\.stringValue).joined(separator: "/") + "#" + (path.last?.intValue.map(String.init) ?? "-")
        }
    }

    @Test func nestedContainersSuperEncodersAndKeysWrittenTwice() throws {
        // The last value of a key wins; a super encoder that writes nothing keeps the key's value;
        // a nested container over a key that holds a value makes it an object.
        #expect(try JSONValueEncoder().encode(Nested()) == [
            "a": 2, "b": ["a": "x"], "c": [true, ["a": 3.5], nil], "d": 4, "e": ["a": 6], "super": "p",
        ])
    }

    @Test func encodingSeesItsCodingPath() throws {
        #expect(try JSONValueEncoder().encode(["k": [PathProbe(), PathProbe()]]) == ["k": ["k/0#0", "k/1#1"]])
        #expect(try JSONValueEncoder().encode(PathProbe()) == "#-")
    }

    @Test func decodingSeesItsCodingPath() throws {
        let decoded = try PropsDecoding.decode([String: [PathProbe]].self, from: ["k": [1, 2]])
        #expect(decoded["k"]?.map(\.path) == ["k/0#0", "k/1#1"])
    }

    @Test func aNonFiniteDoubleNamesWhereItIs() throws {
        struct Values: Encodable { var rows: [[String: Double]]; var list: [Double] }
        func path(_ values: Values) -> String? {
            let error = #expect(throws: EncodingError.self) { try JSONValueEncoder().encode(values) }
            guard case .invalidValue(_, let context)? = error else { return nil }
            return context.codingPath.map(\.stringValue).joined(separator: "/")
        }
        #expect(path(Values(rows: [["x": 1], ["y": .infinity]], list: [])) == "rows/1/y")
        #expect(path(Values(rows: [], list: [1, .nan])) == "list/1")
    }

    /// A synthesized `init(from:)` reads `String`, `Bool`, `Int`, `Int64` and `Double` through the keyed
    /// container's own requirements, which the decoder implements apart from its generic `decode`:
    /// both read the same values and refuse the same ones with the same words.
    @Test func scalarsReadByTheirOwnRequirementsAsByTheGenericOne() throws {
        struct Scalars: Decodable, Equatable {
            var s: String, b: Bool, i: Int, l: Int64, d: Double, o: Int?
        }
        let good: [String: JSONValue] = ["s": "x", "b": true, "i": 3, "l": 9_007_199_254_740_993, "d": 2.5]
        #expect(try PropsDecoding.decode(Scalars.self, from: .object(good))
            == Scalars(s: "x", b: true, i: 3, l: 9_007_199_254_740_993, d: 2.5, o: nil))
        #expect(try PropsDecoding.decode(Scalars.self, from: .object(good.merging(["i": 4.0, "d": 7, "o": 5]) { $1 })).i == 4)
        /// The error of the same value read through the generic path: an element of a list.
        func generic<T: Decodable>(_ type: T.Type, _ value: JSONValue) -> PropsError? {
            #expect(throws: PropsError.self) { try PropsDecoding.decode([T].self, from: [value]) }
        }
        let refused: [(key: String, value: JSONValue, generic: PropsError?)] = [
            ("s", 1, generic(String.self, 1)), ("s", nil, generic(String.self, nil)),
            ("b", "true", generic(Bool.self, "true")), ("i", 2.5, generic(Int.self, 2.5)),
            ("i", "3", generic(Int.self, "3")), ("l", 1e30, generic(Int64.self, 1e30)),
            ("d", "2.5", generic(Double.self, "2.5")), ("o", "5", generic(Int.self, "5")),
        ]
        for (key, value, expected) in refused {
            let error = #expect(throws: PropsError.self) {
                try PropsDecoding.decode(Scalars.self, from: .object(good.merging([key: value]) { $1 }))
            }
            #expect(error?.path.description == "/\(key)", "\(key): \(value)")
            #expect(error?.message == expected?.message, "\(key): \(value)")
            #expect(expected?.path.description == "/0")
        }
    }

    @Test func decodingErrorsNameTheElement() throws {
        struct Three: Decodable {
            init(from decoder: any Decoder) throws {
                var container = try decoder.unkeyedContainer()
                for _ in 0..<3 { _ = try container.decode(Int.self) }
            }
        }
        let mismatch = #expect(throws: PropsError.self) { try PropsDecoding.decode([String: [Int]].self, from: ["k": [1, "x"]]) }
        #expect(mismatch?.path.description == "/k/1")
        #expect(mismatch?.message == "expected an integer, found a string")
        let short = #expect(throws: PropsError.self) { try PropsDecoding.decode([String: Three].self, from: ["k": [1, 2]]) }
        #expect(short?.path.description == "/k/2")
    }
}
