@testable import PropsCatalog
import Testing

/// A patch of a document whose weight is known follows the result's weight operation by operation
/// (`JSONPatch.apply(to:limit:measuredWeight:)`), so a story's size check does not measure the whole
/// result: that weight must be the result's exactly, and the patch must succeed or fail as without it.
/// (`StorySessionTests.patchesAfterAnEditAreBoundedByTheMeasuredWeight` checks the story's limit with it.)
@Suite struct JSONPatchWeightTests {
    /// A random value `depth` levels deep at most: objects, arrays and scalars, strings of any length.
    static func value(depth: Int, _ random: inout SeededGenerator) -> JSONValue {
        switch Int.random(in: 0..<(depth > 0 ? 7 : 4), using: &random) {
        case 0: return .string(String(repeating: "é", count: Int.random(in: 0..<6, using: &random)))
        case 1: return .integer(Int64.random(in: -99...99, using: &random))
        case 2: return .bool(Bool.random(using: &random))
        case 3: return .null
        case 4, 5:
            var members: [String: JSONValue] = [:]
            for index in 0..<Int.random(in: 0..<4, using: &random) {
                members[String(repeating: "k", count: index + 1)] = value(depth: depth - 1, &random)
            }
            return .object(members)
        default:
            return .array((0..<Int.random(in: 0..<4, using: &random)).map { _ in value(depth: depth - 1, &random) })
        }
    }

    /// Every location in `value`, the root first.
    static func pointers(in value: JSONValue, at pointer: JSONPointer = JSONPointer()) -> [JSONPointer] {
        switch value {
        case .object(let members):
            [pointer] + members.flatMap { key, member in pointers(in: member, at: pointer.appending(key)) }
        case .array(let elements):
            [pointer] + elements.indices.flatMap { pointers(in: elements[$0], at: pointer.appending(String($0))) }
        default:
            [pointer]
        }
    }

    /// A random operation on `document`: mostly at locations that exist, sometimes at new or wrong ones.
    static func operation(on document: JSONValue, _ random: inout SeededGenerator) -> JSONPatchOperation {
        let existing = pointers(in: document)
        let somewhere = existing.randomElement(using: &random)!
        // a new place: a member that may not exist yet, the end of an array, or an index past it
        let tail = ["new", "k", "-", "0", "2", "7"].randomElement(using: &random)!
        let fresh = Bool.random(using: &random) ? somewhere.appending(tail) : somewhere
        let small = value(depth: Int.random(in: 0...3, using: &random), &random)
        switch Int.random(in: 0..<6, using: &random) {
        case 0: return .add(path: fresh, value: small)
        case 1: return .remove(path: somewhere)
        case 2: return .replace(path: somewhere, value: small)
        case 3: return .move(from: existing.randomElement(using: &random)!, path: fresh)
        case 4: return .copy(from: existing.randomElement(using: &random)!, path: fresh)
        default: return .test(path: somewhere, value: small)
        }
    }

    @Test(arguments: [1, 2, 3, 4] as [UInt64])
    func theRunningWeightIsTheResultsWeight(seed: UInt64) throws {
        var random = SeededGenerator(seed: seed)
        var succeeded = 0, failed = 0
        for _ in 0..<400 {
            let document = Self.value(depth: 4, &random)
            let weight = try #require(document.weight(upTo: .max, depth: .max))
            // limits that some patches pass: weight and depth, tight or not
            let limit = JSONSizeLimit(weight: weight + Int.random(in: 0...300, using: &random), depth: Int.random(in: 4...8, using: &random))
            guard document.fits(limit) else { continue }
            let patch = JSONPatch(operations: (0..<Int.random(in: 1...4, using: &random)).map { _ in Self.operation(on: document, &random) })
            let plain = Result { () throws(JSONPatchError) in try patch.apply(to: document, limit: limit) }
            let followed = Result { () throws(JSONPatchError) in try patch.apply(to: document, limit: limit, measuredWeight: weight) }
            switch (plain, followed) {
            case (.success(let result), .success(let measured)):
                #expect(measured.document == result)
                #expect(measured.weight == result.weight(upTo: .max, depth: .max), "\(patch.json.serialized()) on \(document.serialized())")
                #expect(result.weight(upTo: .max, depth: limit.depth) != nil, "the result nests within the limit")
                succeeded += 1
            case (.failure(let error), .failure(let same)):
                #expect(error == same)
                failed += 1
            default:
                Issue.record("\(patch.json.serialized()) on \(document.serialized()): \(plain) but \(followed)")
            }
        }
        // both outcomes are exercised
        #expect(succeeded > 50 && failed > 50, "\(succeeded) succeeded, \(failed) failed")
    }
}
