import Foundation
@testable import PropsCatalog
import Synchronization
import Testing

/// Validating with the memo gives what validating without it gives, for a Props type with the
/// layouts and encodings the memo has to get right (a set, an enum-keyed dictionary, `Decimal`,
/// `Date`, `UUID`, `URL`, nested generic structs, optionals of structs, `UInt64` beyond `Int64`,
/// `Float`), under edits that put one subtree in two places (`copy`), move it, respell strings and
/// numbers (`-0.0`, `1.0` for `1`, "é" for "e\u{301}"), and empty arrays and objects; and from
/// several threads at once with one memo.
@Suite struct RoundTripMemoPropertyTests {
    enum Kind: String, Codable, Sendable, CaseIterable { case a, b, c }
    struct Pair<A: Codable & Sendable & Equatable, B: Codable & Sendable & Equatable>: Codable, Sendable, Equatable { var first: A; var second: B }
    struct Leaf: Codable, Sendable, Equatable {
        var flag: Bool
        var count: Int8
        var ratio: Double
        var price: Decimal
        var when: Date
        var id: UUID
        var link: URL
        var tags: Set<String>
        var visits: [Kind: Int]
        var pair: Pair<Int16, String?>
        var nested: Pair<Pair<Bool, Double>, [String]>?
        var kind: Kind
        var unit: UInt64
        var small: Float
    }
    struct Root: Codable, Sendable, Equatable {
        var leaves: [Leaf]
        var extra: [String: Leaf]
    }

    static func leaf(_ i: Int) -> Leaf {
        Leaf(flag: i % 2 == 0, count: Int8(i % 100), ratio: Double(i) / 4, price: Decimal(string: "\(i).5\(i % 3)")!,
             when: Date(timeIntervalSince1970: Double(i * 1000)), id: UUID(uuidString: String(format: "E621E1F8-C36C-495A-93FC-0C247A3E%04X", i))!,
             link: URL(string: "https://x.test/\(i)")!, tags: Set(["t\(i % 3)", "u"]), visits: [.a: i, .b: 2],
             pair: Pair(first: Int16(i), second: i % 3 == 0 ? nil : "s\(i)"), nested: i % 4 == 0 ? nil : Pair(first: Pair(first: true, second: 0.5), second: ["x"]),
             kind: Kind.allCases[i % 3], unit: UInt64.max - UInt64(i), small: 0.1)
    }

    static func component() throws -> AnyComponent {
        try AnyComponent(Component<Root>("Memo/Root") { props in
            List { ForEach(props.leaves) { leaf in Text("\(leaf.count) \(leaf.price) \(leaf.tags.sorted()) \(leaf.pair.second ?? "-")") } }
        }.variant("Default", Root(leaves: (0..<30).map(Self.leaf), extra: ["k": Self.leaf(99)])))
    }

    static func op(_ live: JSONValue, _ r: inout SeededGenerator) -> JSONValue {
        let n = live["leaves"]?.arrayValue?.count ?? 0
        let i = Int.random(in: 0..<max(n, 1), using: &r)
        let j = Int.random(in: 0..<max(n, 1), using: &r)
        let p = "/leaves/\(i)"
        let values: [JSONValue] = [.integer(1), .double(1.0), .double(-0.0), .integer(0), .double(2.5), "caf\u{E9}", "cafe\u{301}", .null, .bool(true),
                                   .exactNumber("18446744073709551615"), "2026-01-01T00:00:00Z", "2026-01-01T00:00:00.000+00:00", ["a", "b"], ["b", "a"], ["a", "a"], [:], []]
        let fields = ["flag", "count", "ratio", "price", "when", "tags", "visits", "pair", "pair/first", "pair/second", "nested", "nested/second", "kind", "unit", "small", "id", "link", "tags/0", "visits/1"]
        switch Int.random(in: 0..<8, using: &r) {
        case 0: return ["op": "copy", "from": .string("/leaves/\(j)"), "path": .string(p)]
        case 1: return ["op": "move", "from": .string("/leaves/\(j)"), "path": .string(p)]
        case 2: return ["op": "copy", "from": .string("/leaves/\(j)"), "path": "/extra/k"]
        case 3: return ["op": "copy", "from": "/extra/k", "path": .string(p)]
        case 4: return ["op": "remove", "path": .string(p)]
        default: return ["op": "replace", "path": .string("\(p)/\(fields.randomElement(using: &r)!)"), "value": values.randomElement(using: &r)!]
        }
    }

    @Test(arguments: 0..<4)
    func randomEditsGiveWhatValidatingWithoutTheMemoGives(seed: UInt64) throws {
        var r = SeededGenerator(seed: seed)
        let component = try Self.component()
        let memo = RoundTripMemo()
        var live = try component.validate(component.variants[0].props, memo: memo).get().props
        var accepted = 0
        for round in 0..<200 {
            let patch = try JSONPatch(json: [Self.op(live, &r)])
            guard let candidate = try? patch.apply(to: live) else { continue }
            let a = component.validate(candidate, memo: memo)
            let b = component.validate(candidate)
            switch (a, b) {
            case (.success(let x), .success(let y)):
                #expect(x.props.isIdentical(to: y.props), "seed \(seed) round \(round) \(patch)")
                #expect(x.view == y.view, "seed \(seed) round \(round)")
                live = x.props; accepted += 1
            case (.failure(let x), .failure(let y)):
                #expect(x.description == y.description, "seed \(seed) round \(round)")
            default:
                Issue.record("seed \(seed) round \(round) \(patch): \(a) vs \(b)")
            }
        }
        #expect(accepted > 100 && memo.statistics.decodesSkipped > 1000, "\(accepted), \(memo.statistics)")
    }

    @Test func validationsOnSeveralThreadsWithOneMemo() throws {
        let component = try Self.component()
        let memo = RoundTripMemo()
        let start = try component.validate(component.variants[0].props, memo: memo).get().props
        let failures = Mutex(0)
        DispatchQueue.concurrentPerform(iterations: 4) { thread in
            var r = SeededGenerator(seed: UInt64(100 + thread))
            var live = start
            for _ in 0..<100 {
                guard let patch = try? JSONPatch(json: [Self.op(live, &r)]), let candidate = try? patch.apply(to: live) else { continue }
                let a = component.validate(candidate, memo: memo)
                let b = component.validate(candidate)
                switch (a, b) {
                case (.success(let x), .success(let y)):
                    if !x.props.isIdentical(to: y.props) || x.view != y.view { failures.withLock { $0 += 1 } }
                    live = x.props
                case (.failure(let x), .failure(let y)):
                    if x.description != y.description { failures.withLock { $0 += 1 } }
                default:
                    failures.withLock { $0 += 1 }
                }
            }
        }
        #expect(failures.withLock { $0 } == 0)
    }
}
