import Foundation
@testable import PropsCatalog
import Testing

// MARK: - Test Props types

private enum IndicatorColor: String, Codable, CaseIterable {
    case red, green
}

private enum Priority: Int, Codable, CaseIterable {
    case low = 1, high = 5
}

private struct Address: Codable, Equatable {
    var street: String
    var zip: Int
}

private struct Location: Codable, Equatable {
    var name: String
    var note: String?
}

/// Every kind of field the storybook's Props use.
private struct UserProfile: Codable, Equatable {
    var name: String
    var bio: String?
    var nickname: String?
    var age: Int
    var height: Double
    var isAdmin: Bool
    var tags: [String]
    var home: Address
    var work: Address?
    var locations: [Location]
    var color: IndicatorColor
    var priority: Priority
    var scores: [String: Int]
    var save: Command
}

private let ada = UserProfile(
    name: "Ada", bio: "Mathematician", nickname: nil, age: 36, height: 1.65, isAdmin: true, tags: [],
    home: Address(street: "St James's Square", zip: 1), work: nil,
    locations: [Location(name: "London", note: nil)], color: .green, priority: .high,
    scores: ["chess": 3], save: "profile.save"
)

private struct Numbers: Codable {
    var int: Int
    var int8: Int8
    var int16: Int16
    var int32: Int32
    var int64: Int64
    var uint: UInt
    var uint8: UInt8
    var uint16: UInt16
    var uint32: UInt32
    var uint64: UInt64
    var int128: Int128
    var uint128: UInt128
    var float: Float
    var double: Double
    var bool: Bool
    var string: String
    var date: Date
    var url: URL
    var uuid: UUID
}

private struct LoginForm: Codable, Equatable {
    var username: String
    var password: String
}

/// A union with an unlabelled payload, a labelled one and a case without payload.
private enum LoginProps: Codable, Equatable {
    case input(LoginForm)
    case loading(cancel: Command)
    case cancelling
}

/// The same union type in several places, some of them without a sample.
private struct Screen: Codable, Equatable {
    var current: LoginProps
    var previous: LoginProps?
    var history: [LoginProps]
}

/// A union inside a type that has no sample, and the union's type seen elsewhere.
private struct Session: Codable, Equatable {
    var login: LoginProps
    var saved: Saved?

    struct Saved: Codable, Equatable {
        var login: LoginProps
        var note: String
    }
}

private struct Holder: Codable, Equatable {
    var inner: Inner?

    struct Inner: Codable, Equatable {
        var count: Int
        var state: Unseen?
        var login: LoginProps
        var after: String
    }
}

private enum Unseen: Codable, Equatable {
    case never(Int)
}

private struct Tree: Codable, Equatable {
    var label: String
    var children: [Tree]
    var parent: Box?

    /// Recursion through a class, as well as through an array.
    final class Box: Codable, Equatable {
        var tree: Tree
        static func == (a: Box, b: Box) -> Bool { a.tree == b.tree }
    }
}

private indirect enum Expr: Codable, Equatable {
    case number(Int)
    case add(Expr, Expr)
}

private struct Email: Codable, Equatable {
    var address: String
    init(from decoder: any Decoder) throws {
        address = try decoder.singleValueContainer().decode(String.self)
    }
    func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        try container.encode(address)
    }
}

private enum Role: String, Codable {
    case reader, writer
}

private enum Mode: Codable, Equatable, CaseIterable {
    case light, dark
}

private struct Generic<Value: Codable & Equatable>: Codable, Equatable {
    var value: Value
}

private struct Odds: Codable, Equatable {
    var email: Email
    var role: Role
    var mode: Mode
    var boxed: Generic<Int>
    var set: Set<Int>
    var byNumber: [Int: String]
    var matrix: [[Double]]
    var maybeMaybe: Int??
}

private struct OptionalsInGenerics: Codable, Equatable {
    var none: Generic<Int?>
    var some: Generic<String?>
    var last: Bool
}

/// A hand-written decoder reading a nested object and a pair from an array.
private struct Handwritten: Decodable {
    var city: String
    var point: (Double, Double)

    enum Keys: String, CodingKey { case address, point }
    enum AddressKeys: String, CodingKey { case city }

    init(from decoder: any Decoder) throws {
        let container = try decoder.container(keyedBy: Keys.self)
        let address = try container.nestedContainer(keyedBy: AddressKeys.self, forKey: .address)
        city = try address.decode(String.self, forKey: .city)
        var pair = try container.nestedUnkeyedContainer(forKey: .point)
        point = (try pair.decode(Double.self), try pair.decode(Double.self))
    }
}

/// A field-less struct whose decoder rejects unknown keys by looking at `allKeys`.
private struct Strict: Decodable {
    struct AnyKey: CodingKey {
        var stringValue: String
        var intValue: Int? { nil }
        init(stringValue: String) { self.stringValue = stringValue }
        init?(intValue: Int) { nil }
    }
    struct UnknownKey: Error {}

    init(from decoder: any Decoder) throws {
        guard try decoder.container(keyedBy: AnyKey.self).allKeys.isEmpty else { throw UnknownKey() }
    }
}

private struct Refusing: Decodable {
    struct Refused: Error {}
    init(from decoder: any Decoder) throws { throw Refused() }
}

private struct HasRefusing: Decodable {
    var first: Int
    var refusing: Refusing?
    var last: String
}

// MARK: - Helpers

private func encode(_ value: some Encodable) throws -> JSONValue {
    try JSONValueEncoder().encode(value)
}

private func json(_ text: String) throws -> JSONValue {
    try JSONParser.parse(text)
}

private func fields(_ schema: EditorSchema) -> [String: EditorSchema] {
    guard case .object(_, let fields) = schema else { return [:] }
    return Dictionary(fields.map { ($0.name, $0.schema) }, uniquingKeysWith: { first, _ in first })
}

// MARK: - Tests

@Suite("Editor schema")
struct SchemaTests {
    @Test("A struct's schema, as exact JSON")
    func profileWireFormat() throws {
        let schema = EditorSchema.infer(UserProfile.self, samples: [try encode(ada)])
        let expected = try json("""
        {"type":"object","name":"UserProfile","fields":[
          {"name":"name","schema":{"type":"string"}},
          {"name":"bio","schema":{"type":"optional","wrapped":{"type":"string"}}},
          {"name":"nickname","schema":{"type":"optional","wrapped":{"type":"string"}}},
          {"name":"age","schema":{"type":"integer"}},
          {"name":"height","schema":{"type":"number"}},
          {"name":"isAdmin","schema":{"type":"boolean"}},
          {"name":"tags","schema":{"type":"array","items":{"type":"string"}}},
          {"name":"home","schema":{"type":"object","name":"Address","fields":[
            {"name":"street","schema":{"type":"string"}},
            {"name":"zip","schema":{"type":"integer"}}]}},
          {"name":"work","schema":{"type":"optional","wrapped":{"type":"object","name":"Address","fields":[
            {"name":"street","schema":{"type":"string"}},
            {"name":"zip","schema":{"type":"integer"}}]}}},
          {"name":"locations","schema":{"type":"array","items":{"type":"object","name":"Location","fields":[
            {"name":"name","schema":{"type":"string"}},
            {"name":"note","schema":{"type":"optional","wrapped":{"type":"string"}}}]}}},
          {"name":"color","schema":{"type":"enum","name":"IndicatorColor","values":["red","green"]}},
          {"name":"priority","schema":{"type":"enum","name":"Priority","values":[1,5]}},
          {"name":"scores","schema":{"type":"dictionary","values":{"type":"integer"}}},
          {"name":"save","schema":{"type":"command"}}
        ]}
        """)
        #expect(schema.json == expected, "\(schema.json.serialized(pretty: true))")
    }

    @Test("Every primitive, and Date, URL and UUID as formatted strings")
    func primitives() throws {
        let schema = EditorSchema.infer(Numbers.self, samples: [])
        let byName = fields(schema)
        for name in ["int", "int8", "int16", "int32", "int64", "uint", "uint8", "uint16", "uint32", "uint64", "int128", "uint128"] {
            #expect(byName[name] == .integer, "\(name)")
        }
        #expect(byName["float"] == .number)
        #expect(byName["double"] == .number)
        #expect(byName["bool"] == .boolean)
        #expect(byName["string"] == .string())
        #expect(byName["date"] == .string(format: .dateTime))
        #expect(byName["url"] == .string(format: .url))
        #expect(byName["uuid"] == .string(format: .uuid))
        #expect(byName.count == 19)
        #expect(byName["date"]?.json == ["type": "string", "format": "date-time"])
    }

    @Test("Samples with real Foundation values decode through the probe")
    func foundationSamples() throws {
        let sample: JSONValue = try json("""
        {"int":1,"int8":2,"int16":3,"int32":4,"int64":5,"uint":6,"uint8":7,"uint16":8,"uint32":9,"uint64":10,"int128":11,"uint128":12,
         "float":1.5,"double":2,"bool":true,"string":"s","date":"2026-11-22T10:00:00.123Z",
         "url":"https://example.com/a","uuid":"3EB14F6D-5A7C-4B9D-BECF-405162738495"}
        """)
        #expect(EditorSchema.infer(Numbers.self, samples: [sample]) == EditorSchema.infer(Numbers.self, samples: []))
    }

    @Test("Optionals nil in every sample and empty arrays still show their wrapped types")
    func missingValues() throws {
        var other = ada
        other.locations = []
        let schema = EditorSchema.infer(UserProfile.self, samples: [try encode(other)])
        let byName = fields(schema)
        #expect(byName["nickname"] == .optional(wrapped: .string()))
        #expect(byName["work"] == .optional(wrapped: .object(name: "Address", fields: [
            .init(name: "street", schema: .string()), .init(name: "zip", schema: .integer),
        ])))
        #expect(byName["tags"] == .array(items: .string()))
        #expect(byName["locations"] == .array(items: .object(name: "Location", fields: [
            .init(name: "name", schema: .string()), .init(name: "note", schema: .optional(wrapped: .string())),
        ])))
        // Without any sample, the same schema.
        #expect(EditorSchema.infer(UserProfile.self, samples: []) == schema)
    }

    @Test("A union learns its cases from all samples, as exact JSON")
    func unionWireFormat() throws {
        let samples = [
            try encode(LoginProps.input(LoginForm(username: "ada", password: ""))),
            try encode(LoginProps.cancelling),
            try encode(LoginProps.loading(cancel: "cancel")),
        ]
        #expect(samples[1] == ["cancelling": [:]])
        let schema = EditorSchema.infer(LoginProps.self, samples: samples)
        let expected = try json("""
        {"type":"union","name":"LoginProps","cases":[
          {"name":"input","fields":[{"name":"_0","schema":{"type":"object","name":"LoginForm","fields":[
            {"name":"username","schema":{"type":"string"}},
            {"name":"password","schema":{"type":"string"}}]}}],
           "example":{"input":{"_0":{"username":"ada","password":""}}}},
          {"name":"cancelling","fields":[],"example":{"cancelling":{}}},
          {"name":"loading","fields":[{"name":"cancel","schema":{"type":"command"}}],"example":{"loading":{"cancel":"cancel"}}}
        ]}
        """)
        #expect(schema.json == expected, "\(schema.json.serialized(pretty: true))")
    }

    @Test("Two samples, two cases; a case never seen is not listed")
    func unionTwoSamples() throws {
        let samples = [try encode(LoginProps.input(LoginForm(username: "a", password: "b"))), try encode(LoginProps.cancelling)]
        guard case .union(let name, let cases) = EditorSchema.infer(LoginProps.self, samples: samples) else {
            Issue.record("not a union")
            return
        }
        #expect(name == "LoginProps")
        #expect(cases.map(\.name) == ["input", "cancelling"])
        #expect(cases[1].fields.isEmpty)
    }

    @Test("A union without any sample is a union without cases")
    func unionWithoutSamples() {
        #expect(EditorSchema.infer(LoginProps.self, samples: []) == .union(name: "LoginProps", cases: []))
        #expect(EditorSchema.infer(LoginProps.self, samples: []).json == ["type": "union", "name": "LoginProps", "cases": []])
    }

    @Test("Places of a union type without a sample learn the cases seen elsewhere")
    func unionCasesShared() throws {
        let screen = Screen(current: .input(LoginForm(username: "a", password: "b")), previous: nil, history: [])
        let other = Screen(current: .cancelling, previous: .loading(cancel: "stop"), history: [])
        let schema = EditorSchema.infer(Screen.self, samples: [try encode(screen), try encode(other)])
        let byName = fields(schema)
        guard case .union(_, let current)? = byName["current"],
              case .optional(.union(_, let previous))? = byName["previous"],
              case .array(.union(_, let history))? = byName["history"]
        else {
            Issue.record("unexpected schema \(schema.json)")
            return
        }
        #expect(current.map(\.name) == ["input", "cancelling", "loading"])
        #expect(current[2].fields == [.init(name: "cancel", schema: .command)])
        #expect(previous == current)
        #expect(history == current)
    }

    @Test("A union without a sample borrows a value seen elsewhere, so its parent is learned in full")
    func unionBorrowsValue() throws {
        let schema = EditorSchema.infer(Session.self, samples: [try encode(Session(login: .cancelling, saved: nil))])
        #expect(schema.schema(at: "/saved") == .optional(wrapped: .object(name: "Saved", fields: [
            .init(name: "login", schema: .union(name: "LoginProps", cases: [.init(name: "cancelling", fields: [], example: ["cancelling": [:]])])),
            .init(name: "note", schema: .string()),
        ])))
    }

    @Test("A union with no sample anywhere stops its parent, which keeps what it learned")
    func unionNowhere() throws {
        let schema = EditorSchema.infer(Holder.self, samples: [try encode(Holder(inner: nil))])
        guard case .optional(.object("Inner", let inner))? = fields(schema)["inner"] else {
            Issue.record("unexpected schema \(schema.json)")
            return
        }
        #expect(inner.map(\.name) == ["count", "state", "login"])
        #expect(inner[1].schema == .optional(wrapped: .union(name: "Unseen", cases: [])))
        #expect(inner[2].schema == .union(name: "LoginProps", cases: []))
    }

    @Test("Recursive types end, expanded twice beyond their samples")
    func recursion() throws {
        let leaf = Tree(label: "leaf", children: [], parent: nil)
        let schema = EditorSchema.infer(Tree.self, samples: [try encode(Tree(label: "root", children: [leaf], parent: nil))])
        // root -> leaf (both from the sample) -> two made-up levels -> unknown
        #expect(schema.schema(at: "/children/*/label") == .string())
        #expect(schema.schema(at: "/children/*/children/*/label") == .string())
        #expect(schema.schema(at: "/children/*/children/*/children/*/label") == .string())
        #expect(schema.schema(at: "/children/*/children/*/children/*/children/*") == .unknown)
        #expect(schema.schema(at: "/parent/tree/label") == .string())

        let expr = Expr.add(.number(1), .add(.number(2), .number(3)))
        let exprSchema = EditorSchema.infer(Expr.self, samples: [try encode(expr)])
        guard case .union(_, let cases) = exprSchema else {
            Issue.record("not a union")
            return
        }
        #expect(cases.map(\.name).sorted() == ["add", "number"])
        #expect(exprSchema.schema(at: "/add/_1/add/_0/number/_0") == .integer)
        #expect(EditorSchema.infer(Expr.self, samples: []) == .union(name: "Expr", cases: []))
        #expect(EditorSchema.infer(Tree.self, samples: []).schema(at: "/children/*/label") == .string())
    }

    @Test("Hints set formats under optionals and array elements, and mark fields read-only")
    func hints() throws {
        let hints: [String: FieldHint] = [
            "/bio": .multiline,
            "/locations/*/name": .color,
            "/locations/*/note": .multiline,
            "/name": .readOnly,
            "/age": .multiline,
            "/missing": .color,
        ]
        let schema = EditorSchema.infer(UserProfile.self, samples: [try encode(ada)], hints: hints)
        #expect(schema.schema(at: "/bio") == .optional(wrapped: .string(format: .multiline)))
        #expect(schema.schema(at: "/locations/*/name") == .string(format: .color))
        #expect(schema.schema(at: "/locations/0/note") == .optional(wrapped: .string(format: .multiline)))
        #expect(schema.schema(at: "/age") == .integer)
        #expect(schema.schema(at: "/name") == .string())
        guard case .object(_, let fields) = schema else {
            Issue.record("not an object")
            return
        }
        #expect(fields.filter(\.isReadOnly).map(\.name) == ["name"])
        #expect(fields[0].json == ["name": "name", "readOnly": true, "schema": ["type": "string"]])
        #expect(fields[1].json == ["name": "bio", "schema": ["type": "optional", "wrapped": ["type": "string", "format": "multiline"]]])
        #expect(EditorSchema.infer(UserProfile.self, samples: []).unmatchedHints(hints) == ["/age", "/missing"])
    }

    @Test("Hints reach union payload fields")
    func unionHints() throws {
        let schema = EditorSchema.infer(
            LoginProps.self,
            samples: [try encode(LoginProps.input(LoginForm(username: "a", password: "b")))],
            hints: ["/input/_0/username": .multiline, "/input/_0": .readOnly]
        )
        #expect(schema.schema(at: "/input/_0/username") == .string(format: .multiline))
        guard case .union(_, let cases) = schema else {
            Issue.record("not a union")
            return
        }
        #expect(cases[0].fields[0].isReadOnly)
    }

    @Test("Custom decoders, generics, sets, nested arrays and odd dictionaries")
    func odds() throws {
        let odds = Odds(
            email: try JSONDecoder().decode(Email.self, from: Data(#""a@b.c""#.utf8)), role: .writer, mode: .dark,
            boxed: Generic(value: 1), set: [], byNumber: [1: "one"], matrix: [[]], maybeMaybe: nil
        )
        let byName = fields(EditorSchema.infer(Odds.self, samples: [try encode(odds)]))
        #expect(byName.count == 8)
        #expect(byName["email"] == .string())
        #expect(byName["role"] == .string())
        #expect(byName["mode"] == .union(name: "Mode", cases: [.init(name: "light", fields: []), .init(name: "dark", fields: [])]))
        #expect(byName["boxed"] == .object(name: "Generic<Int>", fields: [.init(name: "value", schema: .integer)]))
        #expect(byName["set"] == .array(items: .integer))
        #expect(byName["byNumber"] == .unknown)
        #expect(byName["matrix"] == .array(items: .array(items: .number)))
        #expect(byName["maybeMaybe"] == .optional(wrapped: .integer))
    }

    @Test("Optional generic parameters and hand-written nested containers")
    func optionalsAndNestedContainers() throws {
        let value = OptionalsInGenerics(none: Generic(value: nil), some: Generic(value: "x"), last: true)
        for samples in [[try encode(value)], []] {
            #expect(EditorSchema.infer(OptionalsInGenerics.self, samples: samples) == .object(name: "OptionalsInGenerics", fields: [
                .init(name: "none", schema: .object(name: "Generic<Optional<Int>>", fields: [.init(name: "value", schema: .optional(wrapped: .integer))])),
                .init(name: "some", schema: .object(name: "Generic<Optional<String>>", fields: [.init(name: "value", schema: .optional(wrapped: .string()))])),
                .init(name: "last", schema: .boolean),
            ]))
        }
        let handwritten: EditorSchema = .object(name: "Handwritten", fields: [
            .init(name: "address", schema: .object(name: "address", fields: [.init(name: "city", schema: .string())])),
            .init(name: "point", schema: .array(items: .number)),
        ])
        #expect(EditorSchema.infer(Handwritten.self, samples: []) == handwritten)
        #expect(EditorSchema.infer(Handwritten.self, samples: [["address": ["city": "Oslo"], "point": [1.5, 2]]]) == handwritten)
    }

    @Test("Without a sample, a raw-value enum that is not CaseIterable stops its parent there")
    func rawEnumWithoutSample() {
        // "" is no Role, and nothing tells which raw values are: the fields after it stay unknown.
        #expect(EditorSchema.infer(Odds.self, samples: []) == .object(name: "Odds", fields: [
            .init(name: "email", schema: .string()), .init(name: "role", schema: .string()),
        ]))
    }

    @Test("Looking at allKeys alone does not make a struct a union")
    func strictEmptyStruct() {
        #expect(EditorSchema.infer(Strict.self, samples: [[:]]) == .object(name: "Strict", fields: []))
    }

    @Test("A type whose init(from:) throws is unknown, and its siblings are still learned")
    func refusingType() throws {
        #expect(EditorSchema.infer(Refusing.self, samples: []) == .unknown)
        #expect(EditorSchema.infer(Refusing.self, samples: [["anything": 1]]) == .unknown)
        let schema = EditorSchema.infer(HasRefusing.self, samples: [["first": 1, "refusing": ["x": 1], "last": "z"]])
        #expect(schema == .object(name: "HasRefusing", fields: [
            .init(name: "first", schema: .integer),
            .init(name: "refusing", schema: .optional(wrapped: .unknown)),
            .init(name: "last", schema: .string()),
        ]))
    }

    @Test("Samples that do not fit the type teach nothing wrong")
    func badSamples() throws {
        let schema = EditorSchema.infer(UserProfile.self, samples: ["not an object", ["name": 3], [:]])
        #expect(schema == EditorSchema.infer(UserProfile.self, samples: []))
    }

    @Test("Merging: optional wins, unknown gives way, union cases and enum values unite")
    func merging() {
        #expect(EditorSchema.merge(.string(), .optional(wrapped: .string())) == .optional(wrapped: .string()))
        #expect(EditorSchema.merge(.unknown, .integer) == .integer)
        #expect(EditorSchema.merge(.integer, .string()) == .unknown)
        #expect(EditorSchema.merge(.enumeration(name: "E", values: ["a"]), .enumeration(name: "E", values: ["b", "a"])) == .enumeration(name: "E", values: ["a", "b"]))
        #expect(EditorSchema.nullable(.optional(wrapped: .boolean)) == .optional(wrapped: .boolean))
    }
}
