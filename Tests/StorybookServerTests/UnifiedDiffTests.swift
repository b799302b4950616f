@testable import StorybookServer
import Testing
@testable import StorybookReview

/// The unified diff format `storybook check` prints: the same text `diff -u` gives, with git's
/// `a/` and `b/` prefixes.
@Suite struct UnifiedDiffTests {
    private func lines(_ range: ClosedRange<Int>, change: [Int: String] = [:]) -> [UInt8] {
        Array(range.map { (change[$0] ?? "line \($0)") + "\n" }.joined().utf8)
    }

    @Test func equalTextsGiveNothing() {
        #expect(UnifiedDiff.render(file: "x.txt", old: lines(1...3), new: lines(1...3)).isEmpty)
    }

    @Test func oneChangeWithThreeLinesOfContext() {
        let diff = UnifiedDiff.render(file: "auth-login--filled.txt", old: lines(1...10), new: lines(1...10, change: [5: "five"]))
        #expect(diff == """
            --- a/auth-login--filled.txt
            +++ b/auth-login--filled.txt
            @@ -2,7 +2,7 @@
             line 2
             line 3
             line 4
            -line 5
            +five
             line 6
             line 7
             line 8

            """)
    }

    @Test func distantChangesMakeTwoHunksAndCloseOnesOne() {
        let two = UnifiedDiff.render(file: "f", old: lines(1...20), new: lines(1...20, change: [2: "two", 18: "eighteen"]))
        #expect(two.filter { $0 == "@" }.count == 8 && two.contains("@@ -1,5 +1,5 @@") && two.contains("@@ -15,6 +15,6 @@"))
        // Changes 6 lines apart share their context: one hunk.
        let one = UnifiedDiff.render(file: "f", old: lines(1...20), new: lines(1...20, change: [5: "a", 12: "b"]))
        #expect(one.contains("@@ -2,14 +2,14 @@"))
        #expect(one.filter { $0 == "@" }.count == 4)
        // Seven lines apart: two hunks.
        let split = UnifiedDiff.render(file: "f", old: lines(1...20), new: lines(1...20, change: [5: "a", 13: "b"]))
        #expect(split.filter { $0 == "@" }.count == 8)
    }

    @Test func insertionsAtTheStartAndAMissingOldFile() {
        #expect(UnifiedDiff.render(file: "f", old: lines(1...2), new: Array("zero\n".utf8) + lines(1...2)) == """
            --- a/f
            +++ b/f
            @@ -1,2 +1,3 @@
            +zero
             line 1
             line 2

            """)
        #expect(UnifiedDiff.render(file: "new.json", old: nil, new: lines(1...2)) == """
            --- /dev/null
            +++ b/new.json
            @@ -0,0 +1,2 @@
            +line 1
            +line 2

            """)
        #expect(UnifiedDiff.render(file: "gone", old: lines(1...1), new: nil) == "--- a/gone\n+++ /dev/null\n@@ -1 +0,0 @@\n-line 1\n")
        #expect(UnifiedDiff.render(file: "empty", old: nil, new: []) == "--- /dev/null\n+++ b/empty\n")
    }

    @Test func aMissingNewlineIsMarked() {
        let diff = UnifiedDiff.render(file: "f", old: Array("a\nb".utf8), new: Array("a\nb\n".utf8))
        #expect(diff == "--- a/f\n+++ b/f\n@@ -1,2 +1,2 @@\n a\n-b\n\\ No newline at end of file\n+b\n")
    }

    @Test func hunksOfAScript() {
        let operations: [LineDiff.Operation] = (0..<10).map { .equal(a: $0, b: $0) } + [.delete(a: 10)] + (11..<30).map { .equal(a: $0, b: $0 - 1) }
        #expect(UnifiedDiff.hunks(operations, context: 3) == [7..<14])
        #expect(UnifiedDiff.hunks(operations, context: 0) == [10..<11])
        #expect(UnifiedDiff.hunks([], context: 3).isEmpty)
    }
}
