@testable import PropsCatalog
import Testing

/// Patch work is bounded: amplifying patches stop at the size limit with `tooLarge`, at once.
@Suite struct JSONPatchBoundsTests {
    static let props: JSONValue = ["name": "Ada Lovelace", "email": "ada@example.com", "avatarURL": "https://example.com/ada.png"]
    static let small = JSONSizeLimit(weight: 10_000)

    private func failure(_ operations: [JSONPatchOperation], on document: JSONValue = props, limit: JSONSizeLimit = small) -> JSONPatchError? {
        do {
            _ = try JSONPatch(operations: operations).apply(to: document, limit: limit)
            return nil
        } catch {
            return error
        }
    }

    private func pointer(_ text: String) -> JSONPointer {
        try! JSONPointer(parsing: text)
    }

    /// The patch: 30 `copy`s of the root into `/a` and `/b` in turn, each doubling the document.
    static func doubling(_ count: Int) -> [JSONPatchOperation] {
        (0..<count).map { .copy(from: JSONPointer(), path: JSONPointer(tokens: [$0 % 2 == 0 ? "a" : "b"])) }
    }

    @Test func theCopyDoublingPatchStopsAsSoonAsItPassesTheLimit() throws {
        let error = try #require(failure(Self.doubling(30)))
        #expect(error.kind == .tooLarge)
        // About 100 bytes doubled: past 10,000 within 8 operations, long before the 30th.
        #expect(try #require(error.operationIndex) <= 8)
        #expect(EditError(error).code == .tooLarge)
        // With the default limit (2 MiB), the same patch stops near operation 15 instead of building 2^30 copies.
        let atDefault = try #require(failure(Self.doubling(30), limit: .default))
        #expect(atDefault.kind == .tooLarge)
        #expect(try #require(atDefault.operationIndex) < 20)
    }

    @Test func copiesIntoArraysAndDeepPathsAreBoundedToo() throws {
        let document: JSONValue = ["list": ["x"], "a": ["b": [:]]]
        let appends = (0..<40).flatMap { _ in [JSONPatchOperation.copy(from: pointer("/list"), path: pointer("/list/-"))] }
        #expect(failure(appends, on: document)?.kind == .tooLarge)
        let nested = (0..<40).map { JSONPatchOperation.copy(from: JSONPointer(), path: pointer("/a/b/c\($0)")) }
        #expect(failure(nested, on: document)?.kind == .tooLarge)
    }

    @Test func moveChainsCannotNestPastTheDepthLimit() throws {
        // Each move puts the whole document one level deeper: ["a": doc].
        var operations: [JSONPatchOperation] = []
        for index in 0..<80 {
            operations.append(.add(path: pointer("/w\(index)"), value: [:]))
            operations.append(.move(from: pointer("/name"), path: pointer("/w\(index)/name")))
            operations.append(.move(from: pointer("/w\(index)"), path: pointer("/name")))
        }
        let error = try #require(failure(operations, limit: JSONSizeLimit(weight: 1 << 20)))
        #expect(error.kind == .tooLarge)
    }

    @Test func deepAddsStopAtTheDepthLimit() throws {
        var path = ""
        var operations: [JSONPatchOperation] = []
        for _ in 0..<100 {
            path += "/d"
            operations.append(.add(path: pointer(path), value: [:]))
        }
        let error = try #require(failure(operations, limit: JSONSizeLimit(weight: 1 << 20, depth: 64)))
        #expect(error.kind == .tooLarge)
        #expect(error.operationIndex == 63)  // the 64th container level is the last one allowed
    }

    @Test func shiftingABigArrayOverAndOverIsCharged() throws {
        let document: JSONValue = ["list": .array(Array(repeating: 0, count: 4_000))]
        let inserts = (0..<2_000).map { _ in JSONPatchOperation.add(path: pointer("/list/0"), value: 1) }
        #expect(failure(inserts, on: document)?.kind == .tooLarge)
        let removals = (0..<2_000).map { _ in JSONPatchOperation.remove(path: pointer("/list/0")) }
        #expect(failure(removals, on: document)?.kind == .tooLarge)
    }

    @Test func aDocumentAlreadyOverTheLimitTakesNoPatch() throws {
        let big: JSONValue = ["s": .string(String(repeating: "x", count: 20_000))]
        #expect(failure([.test(path: pointer("/s"), value: "x")], on: big)?.kind == .tooLarge)
    }

    @Test func ordinaryPatchesAreUnaffected() throws {
        let result = try JSONPatch(operations: [
            .replace(path: pointer("/name"), value: "Grace"),
            .copy(from: pointer("/email"), path: pointer("/backup")),
            .move(from: pointer("/backup"), path: pointer("/moved")),
            .remove(path: pointer("/moved")),
            .test(path: pointer("/name"), value: "Grace"),
        ]).apply(to: Self.props, limit: Self.small)
        #expect(result["name"] == "Grace")
        #expect(result.fits(Self.small))
    }

    @Test func weightIsAboutTheSerializedSize() {
        let value: JSONValue = ["key": ["abc", 1, true, .null, ["x": 2.5]]]
        let weight = value.weight(upTo: .max, depth: 64)!
        let serialized = value.serialized().utf8.count
        #expect(abs(weight - serialized) <= serialized / 2)
        #expect(value.weight(upTo: .max, depth: 2) == nil)
        #expect(value.weight(upTo: .max, depth: 3) != nil)
        #expect(value.fits(JSONSizeLimit(weight: weight)))
        #expect(!value.fits(JSONSizeLimit(weight: weight - 1)))
    }
}
