import DemoCatalog
import Foundation
@testable import PropsCatalog
import Testing

/// Issue 12: canonical JSON, exact numbers, honest edits and dates, each with its reproduction.
@Suite struct LosslessPropsTests {
    enum Theme: String, Codable, Sendable, CaseIterable { case light, dark, sepia, night }

    struct Shop: Codable, Sendable, Equatable {
        var tags: Set<String>
        var visits: [Theme: Int]
        var price: Decimal
        var counter: Int64
        var big: UInt64
        var quantity: Int
        var ratio: Double
        var when: Date
    }

    static let shop = Shop(
        tags: ["light", "dark", "a", "b", "c", "d", "e", "f"], visits: [.light: 1, .dark: 2, .sepia: 3, .night: 4],
        price: Decimal(string: "19.99")!, counter: 9_007_199_254_740_993, big: UInt64.max, quantity: 2, ratio: 0.1,
        when: Date(timeIntervalSince1970: 1_795_000_000.123456))

    static let component = Component<Shop>("Test/Shop") { props in Text("\(props.price)") }.variant("Default", shop)

    private func validate(_ json: String) throws -> Result<AnyComponent.Validated, PropsError> {
        try AnyComponent(Self.component).validate(try JSONParser.parse(json))
    }

    private func props() throws -> JSONValue {
        try JSONValueEncoder().encode(Self.shop)
    }

    private func edited(_ pointer: String, _ value: String) throws -> String {
        let patch = try JSONPatch(json: JSONParser.parse(#"[{"op": "replace", "path": "\#(pointer)", "value": \#(value)}]"#))
        return try patch.apply(to: props()).serialized()
    }

    // MARK: Canonical order

    @Test func setsAndEnumKeyedDictionariesEncodeInOneOrderWhateverTheirHashOrder() throws {
        var roomy = Set<String>(minimumCapacity: 512)
        var visits = [Theme: Int](minimumCapacity: 512)
        for tag in Self.shop.tags.sorted().reversed() { roomy.insert(tag) }
        for (theme, count) in Self.shop.visits.sorted(by: { $0.key.rawValue > $1.key.rawValue }) { visits[theme] = count }
        var other = Self.shop
        other.tags = roomy
        other.visits = visits
        // Same values, different storage: Swift iterates them in different orders...
        #expect(Array(roomy) != Array(Self.shop.tags) || Array(visits.keys) != Array(Self.shop.visits.keys))
        // ...but they encode to the same bytes.
        let encoder = JSONValueEncoder()
        #expect(try encoder.encode(other).serializedBytes() == encoder.encode(Self.shop).serializedBytes())
        let json = try encoder.encode(Self.shop)
        #expect(json["tags"] == ["a", "b", "c", "d", "dark", "e", "f", "light"])
        #expect(json["visits"] == ["dark", 2, "light", 1, "night", 4, "sepia", 3])
    }

    // MARK: Exact numbers

    @Test func decimalKeepsItsDigits() throws {
        // Reproduction 2: Decimal(string: "19.99") rendered as 19.990000000000002.
        let json = try props()
        #expect(json["price"]?.serialized() == "19.99")
        var long = Self.shop
        long.price = Decimal(string: "12345678901234567890.123456789")!
        let encoded = try JSONValueEncoder().encode(long)
        #expect(encoded["price"]?.serialized() == "12345678901234567890.123456789")
        let decoded = try PropsDecoding.decode(Shop.self, from: encoded)
        #expect(decoded.price == long.price)
        // Through validation, as every edit goes.
        let validated = try validate(encoded.serialized()).get()
        #expect(validated.props["price"]?.serialized() == "12345678901234567890.123456789")
    }

    @Test func sixtyFourBitIntegersKeepEveryDigit() throws {
        let json = try props()
        #expect(json["counter"]?.serialized() == "9007199254740993")
        #expect(json["big"]?.serialized() == "18446744073709551615")
        let validated = try validate(json.serialized()).get()
        #expect(validated.props.serialized() == json.serialized())
        #expect(try PropsDecoding.decode(Shop.self, from: json) == Self.shop)
    }

    @Test func doublesKeepTheShortestForm() throws {
        #expect(try props()["ratio"]?.serialized() == "0.1")
        #expect(JSONValue.double(0.1 + 0.2).serialized() == "0.30000000000000004")
        #expect(try JSONParser.parse("0.30000000000000004") == .double(0.1 + 0.2))
    }

    @Test func aNumberThatDoesNotFitItsFieldNamesTheFieldAndWhy() throws {
        // Reproduction 3: both were "The given data was not valid JSON." at "".
        let fraction = try #require(try validate(edited("/quantity", "2.5")).failure)
        #expect(fraction.path.description == "/quantity")
        #expect(fraction.message == "expected an integer, found 2.5")
        let tooBig = try #require(try validate(edited("/counter", "9223372036854775808")).failure)
        #expect(tooBig.path.description == "/counter")
        #expect(tooBig.message == "9223372036854775808 does not fit in Int64")
        let negative = try #require(try validate(edited("/big", "-1")).failure)
        #expect(negative.message == "-1 does not fit in UInt64")
        let text = try #require(try validate(edited("/quantity", #""2""#)).failure)
        #expect(text.message == "expected an integer, found a string")
    }

    @Test func theCartReproductionOverAPatch() throws {
        // PATCH /lines/0/quantity (an Int) to 2.5 on the demo cart.
        let catalog = try DemoCatalog.make()
        var session = try StorySession(story: #require(catalog.story(id: "shop-cart--filled")))
        let error = try #require(session.replacing("/lines/0/quantity", with: "2.5").failure)
        #expect(error.code == .invalidProps)
        #expect(error.path == "/lines/0/quantity")
        #expect(error.message == "expected an integer, found 2.5")
        let second = try #require(session.replacing("/visits", with: "9223372036854775808").failure)
        #expect(second.path == "/visits")
        #expect(second.message == "9223372036854775808 does not fit in Int64")
        #expect(session.version == 1)
    }

    // MARK: Honest edits

    /// A type with a constant the decoder skips (what a synthesized `init(from:)` does with a
    /// `let schemaVersion = 2`), and a clamping wrapper.
    struct Versioned: Codable, Sendable, Equatable {
        let schemaVersion: Int
        @Clamped var level: Int
        var name: String

        init(level: Int, name: String) {
            schemaVersion = 2
            _level = Clamped(wrappedValue: level)
            self.name = name
        }

        enum CodingKeys: String, CodingKey { case schemaVersion, level, name }

        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            schemaVersion = 2
            _level = try container.decode(Clamped.self, forKey: .level)
            name = try container.decode(String.self, forKey: .name)
        }
    }

    /// Keeps an integer within 0...5.
    @propertyWrapper struct Clamped: Codable, Sendable, Equatable {
        var wrappedValue: Int { didSet { wrappedValue = min(max(wrappedValue, 0), 5) } }
        init(wrappedValue: Int) { self.wrappedValue = min(max(wrappedValue, 0), 5) }
        init(from decoder: any Decoder) throws { self.init(wrappedValue: try decoder.singleValueContainer().decode(Int.self)) }
        func encode(to encoder: any Encoder) throws {
            var container = encoder.singleValueContainer()
            try container.encode(wrappedValue)
        }
    }

    static let versioned = Component<Versioned>("Test/Versioned") { props in Text(props.name) }
        .variant("Default", Versioned(level: 3, name: "a"))
        .hint("/level", .readOnly)

    private func versionedSession() throws -> StorySession {
        let catalog = try Catalog([AnyComponent(Self.versioned)])
        return try StorySession(story: #require(catalog.story(id: "test-versioned--default")))
    }

    @Test func anEditToAFieldTheTypeDoesNotDecodeIsRefused() throws {
        // Reproduction 5: PATCH schemaVersion 2 -> 3 answered 200 and kept 2.
        var session = try versionedSession()
        let error = try #require(session.replacing("/schemaVersion", with: "3").failure)
        #expect(error.code == .invalidProps)
        #expect(error.path == "/schemaVersion")
        #expect(error.message == "the Props type does not keep the value sent: it keeps 2")
        #expect(session.version == 1)
    }

    /// The reproduction as a user writes it: a constant with its value in the declaration, which the
    /// synthesized `init(from:)` cannot assign (listing it in `CodingKeys` keeps it encoded and the
    /// compiler quiet).
    struct Constant: Codable, Sendable, Equatable {
        let schemaVersion = 2
        var name: String
        enum CodingKeys: String, CodingKey { case schemaVersion, name }
    }

    @Test func anEditToASynthesizedConstantIsRefused() throws {
        let component = Component<Constant>("Test/Constant") { props in Text(props.name) }.variant("Default", Constant(name: "a"))
        let catalog = try Catalog([AnyComponent(component)])
        var session = try StorySession(story: #require(catalog.story(id: "test-constant--default")))
        let error = try #require(session.replacing("/schemaVersion", with: "3").failure)
        #expect(error.path == "/schemaVersion")
        #expect(error.message == "the Props type does not keep the value sent: it keeps 2")
        #expect(session.version == 1)
    }

    /// An array the type sorts while decoding: its order is not canonical spelling, the type changed it.
    struct Sorted: Codable, Sendable, Equatable {
        var names: [String]
        var tags: Set<String>
        init(names: [String], tags: Set<String>) { self.names = names; self.tags = tags }
        init(from decoder: any Decoder) throws {
            let container = try decoder.container(keyedBy: CodingKeys.self)
            names = try container.decode([String].self, forKey: .names).sorted()
            tags = try container.decode(Set<String>.self, forKey: .tags)
        }
    }

    @Test func anArrayTheTypeReordersIsRefusedButASetIsNot() throws {
        let component = Component<Sorted>("Test/Sorted") { props in Text(props.names.joined()) }
            .variant("Default", Sorted(names: ["a", "b"], tags: ["x", "y", "z"]))
        let catalog = try Catalog([AnyComponent(component)])
        var session = try StorySession(story: #require(catalog.story(id: "test-sorted--default")))
        let error = try #require(session.replacing("/names", with: #"["b", "a"]"#).failure)
        #expect(error.path == "/names/0")
        #expect(error.message == #"the Props type does not keep the value sent: it keeps "a""#)
        #expect(try session.replacing("/tags", with: #"["z", "x", "y"]"#).success != nil)
    }

    /// Sets where the encoder's coding path alone would place them wrongly: inside an enum-keyed
    /// dictionary (whose pairs it sorts), inside another set, and behind an `Int`-backed `CodingKeys`.
    struct Shelves: Codable, Sendable, Equatable {
        struct Coded: Codable, Sendable, Equatable {
            var tags: Set<String>
            enum CodingKeys: Int, CodingKey { case tags = 7 }
        }
        var byTheme: [Theme: Set<String>]
        var groups: Set<Set<String>>
        var coded: Coded
    }

    @Test func setsAnywhereMayComeInAnyOrder() throws {
        let shelves = Shelves(byTheme: [.light: ["a", "b", "c"], .dark: ["x", "y"]], groups: [["p", "q"], ["r", "s", "t"]],
                              coded: .init(tags: ["m", "n", "o"]))
        let component = Component<Shelves>("Test/Shelves") { _ in Text("shelves") }.variant("Default", shelves)
        let canonical = try JSONValueEncoder().encode(shelves)
        // Every collection in an order the encoder does not write.
        let json = #"{"byTheme": ["light", ["c", "b", "a"], "dark", ["y", "x"]], "groups": [["t", "s", "r"], ["q", "p"]], "coded": {"tags": ["o", "n", "m"]}}"#
        let validated = try AnyComponent(component).validate(try JSONParser.parse(json)).get()
        #expect(validated.props == canonical)
    }

    @Test func aClampedValueIsRefusedWithTheValueKept() throws {
        var session = try versionedSession()
        let error = try #require(session.replacing("/level", with: "7").failure)
        #expect(error.path == "/level")
        #expect(error.message == "the Props type does not keep the value sent: it keeps 5")
        #expect(try session.replacing("/level", with: "4").success != nil)
    }

    @Test func canonicalRespellingsAreAccepted() throws {
        // Key order, 2.0 for an integer, an exponent, a date with an offset, a set in another order.
        let json = #"""
        {"when": "2026-11-18T12:06:40.123456+01:00", "visits": ["night", 4, "sepia", 3, "light", 1, "dark", 2.0],
         "tags": ["light", "f", "e", "d", "c", "b", "a", "dark"], "ratio": 1e-1, "quantity": 2.0,
         "price": 19.990, "counter": 9007199254740993, "big": 18446744073709551615}
        """#
        let validated = try validate(json).get()
        #expect(validated.props.serialized() == (try props()).serialized())
    }

    @Test func theSchemaKnowsEveryNumberField() throws {
        // A UInt64 above Int64.max is an exact number in JSON; inference used to give up at it and
        // lose every field decoded after it.
        let schema = EditorSchema.infer(Shop.self, samples: [try props()])
        #expect(schema.schema(at: "/big") == .integer)
        #expect(schema.schema(at: "/counter") == .integer)
        #expect(schema.schema(at: "/quantity") == .integer)
        #expect(schema.schema(at: "/ratio") == .number)
        #expect(schema.schema(at: "/when") == .string(format: .dateTime))
    }

    // MARK: Dates

    @Test func datesKeepMicrosecondsAndTakeOffsetsAsTheSameInstant() throws {
        // Reproduction 6: sub-millisecond digits were cut and +02:00 became Z.
        let date = try #require(ISO8601.date(from: "2026-11-22T12:00:00.123456+02:00"))
        #expect(ISO8601.string(from: date) == "2026-11-22T10:00:00.123456Z")
        #expect(ISO8601.string(from: Date(timeIntervalSince1970: 1_795_000_000.25)) == "2026-11-18T11:06:40.250Z")
        #expect(ISO8601.string(from: Date(timeIntervalSince1970: 1_795_000_000)) == "2026-11-18T11:06:40Z")
        #expect(try props()["when"] == "2026-11-18T11:06:40.123456Z")
        // More digits than a microsecond are rounded to it: the same kept value, so accepted.
        let finer = try validate(edited("/when", #""2026-11-18T11:06:40.1234564Z""#)).get()
        #expect(finer.props["when"] == "2026-11-18T11:06:40.123456Z")
        #expect(ISO8601.date(from: "2026-02-30T00:00:00Z") == nil)
        #expect(ISO8601.date(from: "2026-11-22 10:00:00Z") == nil)
        // Every microsecond of a day survives the round trip.
        for micros in stride(from: 0, to: 1_000_000, by: 9_973) {
            let text = "2026-11-22T10:00:00.\(String(format: "%06d", micros))Z"
            let parsed = try #require(ISO8601.date(from: text))
            let written = ISO8601.string(from: parsed)
            #expect(ISO8601.date(from: written) == parsed)
        }
    }

    // MARK: The sent value kept as it is

    struct Shelf: Codable, Sendable, Equatable {
        struct Book: Codable, Sendable, Equatable {
            var title: String
            var tags: [String]
            var rating: Double
        }
        var books: [Book]
        var note: String?
    }

    static let shelf = Component<Shelf>("Test/Shelf") { props in Text("\(props.books.count) books") }
        .variant("Default", Shelf(books: (0..<20).map { .init(title: "Book \($0)", tags: ["t\($0)", "x"], rating: 0.5) }, note: nil))

    private func shelfSession() throws -> StorySession {
        let catalog = try Catalog([AnyComponent(Self.shelf)])
        return try StorySession(story: #require(catalog.story(id: "test-shelf--default")))
    }

    /// The storage of an array: the same address for two arrays that share it.
    private func storage(_ array: [JSONValue]?) -> UnsafeRawPointer? {
        array?.withUnsafeBufferPointer { UnsafeRawPointer($0.baseAddress) }
    }

    @Test func equalityAndTheDiffStopAtSharedStorage() {
        // NaN is not equal to itself: only a comparison that stops at shared storage finds these equal.
        let list: JSONValue = [.double(.nan)]
        let object: JSONValue = ["x": .double(.nan)]
        #expect(list == list)
        #expect(object == object)
        #expect(list != [.double(.nan)])
        #expect(object != ["x": .double(.nan)])
        let shared: JSONValue = ["list": list, "object": object]
        #expect(JSONPatch.diff(from: shared, to: ["list": list, "object": object]).operations.isEmpty)
        // The diff compares bits: a NaN with other payload bits is another value.
        let other = Double(nan: 7, signaling: false)
        #expect(JSONPatch.diff(from: shared, to: ["list": [.double(other)], "object": ["x": .double(other)]]).operations.count == 2)
    }

    /// `==` takes canonically equivalent strings and keys, and `-0.0` and `0.0`, as equal; the diff
    /// (the history's patch, a state delta's props) must not, or a client applying it keeps the old spelling.
    @Test func theDiffReproducesTheTargetByteForByte() throws {
        let composed = "Ada L\u{F6}velace"
        let decomposed = "Ada Lo\u{308}velace"
        #expect(JSONValue.string(composed) == .string(decomposed))
        let cases: [(JSONValue, JSONValue, Int)] = [
            (["name": .string(composed)], ["name": .string(decomposed)], 1),
            (["offset": .double(0.0)], ["offset": .double(-0.0)], 1),
            ([.string(composed), .integer(1)], [.string(decomposed), .integer(1)], 1),
            ([composed: .integer(1)], [decomposed: .integer(1)], 2),  // the key: removed, then added in its new spelling
            (["n": .integer(1)], ["n": .double(1)], 1),
        ]
        for (source, target, count) in cases {
            let patch = JSONPatch.diff(from: source, to: target)
            #expect(patch.operations.count == count, "\(source) -> \(target): \(patch)")
            let applied = try patch.apply(to: source)
            #expect(applied.isIdentical(to: target), "\(source) -> \(target): \(applied)")
            #expect(!source.isIdentical(to: target))
        }
    }

    @Test func anEditKeptExactlyIsTheLivePropsAndSharesTheUntouchedStorage() throws {
        var session = try shelfSession()
        let before = session.props
        guard case .changed(let change) = try session.replacing("/books/7/title", with: #""Moby""#).get() else {
            Issue.record("the edit changed nothing")
            return
        }
        #expect(change.entry.patch == JSONPatch(operations: [.replace(path: try JSONPointer(parsing: "/books/7/title"), value: "Moby")]))
        #expect(change.props == (try JSONValueEncoder().encode(PropsDecoding.decode(Shelf.self, from: change.props))))
        // The books the patch left alone are the very storage of the props before it.
        for index in [0, 6, 8, 19] {
            let old = before["books"]?.arrayValue?[index]["tags"]?.arrayValue
            #expect(storage(session.props["books"]?.arrayValue?[index]["tags"]?.arrayValue) == storage(old))
        }
    }

    /// The props weight a session keeps for the next patch's budget (see `StorySession.prepare`) is
    /// never one of props that validation did not keep as sent: here it writes the `note` left out.
    @Test func aWeightMeasuredBeforeIsDroppedWhenValidationChangesTheProps() throws {
        var session = try shelfSession()
        _ = try session.replacing("/books/0/title", with: #""A somewhat longer title""#).get()
        let measured = try #require(session.measuredWeight)  // kept as sent: measured
        #expect(measured.weight == session.props.weight(within: measured.limit))
        var members = try #require(session.props.objectValue)
        members["note"] = nil
        members["books"] = .array(Array(try #require(members["books"]?.arrayValue).prefix(3)))
        guard case .changed = try session.apply(.replace(.object(members)), source: .http).get() else {
            Issue.record("the replace changed nothing")
            return
        }
        #expect(session.props["note"] == .null)  // validation wrote what was left out
        if let stale = session.measuredWeight {
            #expect(stale.weight == session.props.weight(within: stale.limit))
        }
        #expect(session.measuredWeight == nil)
    }

    @Test func anEditKeptOnlyUpToSpellingIsTheCanonicalProps() throws {
        var session = try shelfSession()
        let before = session.props
        // 1 for the double 1.0: the same value, in another form than the encoder writes.
        guard case .changed(let change) = try session.replacing("/books/7/rating", with: "1").get() else {
            Issue.record("the edit changed nothing")
            return
        }
        #expect(change.props["books"]?.arrayValue?[7]["rating"] == .double(1))
        #expect(change.entry.patch == JSONPatch(operations: [.replace(path: try JSONPointer(parsing: "/books/7/rating"), value: .double(1))]))
        // The canonical props are the encoder's, and where the encoder gave back exactly what was sent
        // (the books the edit did not touch: the session's `RoundTripMemo`), that very storage.
        #expect(change.props.isIdentical(to: try JSONValueEncoder().encode(PropsDecoding.decode(Shelf.self, from: change.props))))
        let old = before["books"]?.arrayValue?[0]["tags"]?.arrayValue
        #expect(storage(session.props["books"]?.arrayValue?[0]["tags"]?.arrayValue) == storage(old))
        // A member left out comes back as the null the encoder writes.
        let validated = try AnyComponent(Self.shelf).validate(.object(#require(before.objectValue).filter { $0.key != "note" })).get()
        #expect(validated.props == before)
    }
}

extension StorySession {
    /// Applies `[{"op": "replace", "path": path, "value": value}]` (the value as JSON text) over HTTP.
    mutating func replacing(_ path: String, with value: String) throws -> Result<EditOutcome, EditError> {
        let patch = try JSONPatch(json: JSONParser.parse(#"[{"op": "replace", "path": "\#(path)", "value": \#(value)}]"#))
        return apply(.patch(patch), source: .http)
    }
}

extension Result {
    var success: Success? {
        if case .success(let value) = self { return value }
        return nil
    }
}

@Suite struct JSONNumberTests {
    @Test func eachNumberHasOneForm() throws {
        #expect(JSONValue.number(text: "2") == .integer(2))
        #expect(JSONValue.number(text: "2.50") == .double(2.5))
        #expect(JSONValue.number(text: "9223372036854775808") == .exactNumber("9223372036854775808"))
        #expect(JSONValue.number(text: "0.12345678901234567890") == .exactNumber("0.12345678901234567890"))
        // Beyond a double's range the text is kept, and the Props type refuses it at its path.
        #expect(JSONValue.number(text: "1e400") == .exactNumber("1e400"))
        #expect(JSONValue.number(text: "1e-400") == .exactNumber("1e-400"))
        #expect(JSONValue.number(text: "4.9e-324") == .exactNumber("4.9e-324"))  // a subnormal: 5e-324
        #expect(JSONValue.number(text: "-0.0") == .double(-0.0))
        #expect(JSONValue.number(text: "1e2x") == nil)
        #expect(try JSONParser.parse("[1e400]") == [.exactNumber("1e400")])
        #expect { try PropsDecoding.decode([Double].self, from: [.exactNumber("1e400")]) } throws: {
            "\($0)".contains("1e400 does not fit in Double")
        }
        #expect { try PropsDecoding.decode([Decimal].self, from: [.exactNumber("1e400")]) } throws: {
            "\($0)".contains("1e400 does not fit in Decimal")
        }
        // A Float in its own shortest form, and back.
        #expect(try JSONValueEncoder().encode([Float(0.1)]) == [0.1])
        #expect(try PropsDecoding.decode([Float].self, from: [0.1]) == [Float(0.1)])
        #expect(JSONValue.exactNumber("20e-1").jsonEquals(.integer(2)))
        #expect(!JSONValue.exactNumber("18446744073709551615").jsonEquals(.exactNumber("18446744073709551614")))
    }
}
