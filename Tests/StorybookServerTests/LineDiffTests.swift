@testable import StorybookServer
import Testing
@testable import StorybookReview

/// The line diff behind `storybook check`: shortest scripts, checked against a plain LCS table.
@Suite struct LineDiffTests {
    private func text(_ lines: [String]) -> [UInt8] {
        Array(lines.map { $0 + "\n" }.joined().utf8)
    }

    /// Replays a script: the lines it keeps and inserts must give `b`, those it keeps and deletes `a`.
    private func replay(_ diff: LineDiff) -> (a: [ArraySlice<UInt8>], b: [ArraySlice<UInt8>]) {
        var a: [ArraySlice<UInt8>] = [], b: [ArraySlice<UInt8>] = []
        for operation in diff.operations {
            switch operation {
            case .equal(let i, let j):
                #expect(diff.a[i] == diff.b[j])
                a.append(diff.a[i]); b.append(diff.b[j])
            case .delete(let i): a.append(diff.a[i])
            case .insert(let j): b.append(diff.b[j])
            }
        }
        return (a, b)
    }

    /// The length of a longest common subsequence, by the textbook O(NM) table.
    private func lcsLength(_ a: [String], _ b: [String]) -> Int {
        var table = [[Int]](repeating: [Int](repeating: 0, count: b.count + 1), count: a.count + 1)
        for i in stride(from: a.count - 1, through: 0, by: -1) {
            for j in stride(from: b.count - 1, through: 0, by: -1) {
                table[i][j] = a[i] == b[j] ? table[i + 1][j + 1] + 1 : max(table[i + 1][j], table[i][j + 1])
            }
        }
        return table[0][0]
    }

    @Test func linesKeepTheirNewlineAndALastLineMayHaveNone() {
        #expect(LineDiff.lines(Array("a\nb\nc".utf8)).map { String(decoding: $0, as: UTF8.self) } == ["a\n", "b\n", "c"])
        #expect(LineDiff.lines(Array("a\n\n".utf8)).map { String(decoding: $0, as: UTF8.self) } == ["a\n", "\n"])
        #expect(LineDiff.lines([]).isEmpty)
    }

    @Test func equalTextsHaveNoChanges() {
        let diff = LineDiff(text(["a", "b"]), text(["a", "b"]))
        #expect(!diff.hasChanges)
        #expect(diff.operations == [.equal(a: 0, b: 0), .equal(a: 1, b: 1)])
    }

    @Test func oneReplacedLineIsADeletionThenAnInsertion() {
        let diff = LineDiff(text(["a", "b", "c"]), text(["a", "x", "c"]))
        #expect(diff.operations == [.equal(a: 0, b: 0), .delete(a: 1), .insert(b: 1), .equal(a: 2, b: 2)])
    }

    @Test func aMissingFinalNewlineIsAChange() {
        let diff = LineDiff(Array("a\nb\n".utf8), Array("a\nb".utf8))
        #expect(diff.operations == [.equal(a: 0, b: 0), .delete(a: 1), .insert(b: 1)])
    }

    @Test func emptySides() {
        #expect(LineDiff([], text(["a", "b"])).operations == [.insert(b: 0), .insert(b: 1)])
        #expect(LineDiff(text(["a"]), []).operations == [.delete(a: 0)])
        #expect(LineDiff([], []).operations.isEmpty)
    }

    @Test func theClassicExampleIsShortest() {
        // Myers' paper: ABCABBA -> CBABAC has edit distance 5.
        let diff = LineDiff(text("ABCABBA".map(String.init)), text("CBABAC".map(String.init)))
        #expect(diff.editCount == 5)
        let (a, b) = replay(diff)
        #expect(a == diff.a && b == diff.b)
    }

    @Test func randomScriptsAreValidAndShortest() {
        var generator = SplitMix(seed: 42)
        for round in 0..<600 {
            let alphabet = ["x", "y", "z", "w"].prefix(2 + round % 3)
            let a = (0..<Int.random(in: 0...14, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let b = (0..<Int.random(in: 0...14, using: &generator)).map { _ in alphabet.randomElement(using: &generator)! }
            let diff = LineDiff(text(a), text(b))
            let (replayedA, replayedB) = replay(diff)
            #expect(replayedA == diff.a && replayedB == diff.b, "\(a) -> \(b)")
            #expect(diff.editCount == a.count + b.count - 2 * lcsLength(a, b), "\(a) -> \(b)")
        }
    }

    @Test func largeDifferentTextsStayFast() {
        let a = text((0..<3_000).map { "old \($0)" })
        let b = text((0..<3_000).map { $0 % 2 == 0 ? "old \($0)" : "new \($0)" })
        let diff = LineDiff(a, b)
        #expect(diff.editCount == 3_000)
    }
}

/// A small seeded generator, so that the random rounds are the same on every run.
struct SplitMix: RandomNumberGenerator {
    var state: UInt64
    init(seed: UInt64) { state = seed }
    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
