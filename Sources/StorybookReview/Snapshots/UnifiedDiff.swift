/// A unified diff of two texts, as `diff -u` and `git diff` print it: `--- a/<file>` and
/// `+++ b/<file>` headers, then `@@ -l,s +l,s @@` hunks with `context` lines around each change.
/// A missing side is `/dev/null`; a last line without a newline is followed by
/// `\ No newline at end of file`. `patch -p1` applies it.
package enum UnifiedDiff {
    /// The diff from `old` (the golden, `a/`) to `new` (`b/`); empty when both are the same.
    /// - Parameters:
    ///   - old: the old bytes, nil when the old file does not exist.
    ///   - new: the new bytes, nil when the new file does not exist.
    package static func render(file: String, old: [UInt8]?, new: [UInt8]?, context: Int = 3) -> String {
        let diff = LineDiff(old ?? [], new ?? [])
        guard diff.hasChanges || (old == nil) != (new == nil) else { return "" }
        var out = "--- \(old == nil ? "/dev/null" : "a/\(file)")\n+++ \(new == nil ? "/dev/null" : "b/\(file)")\n"
        var before = (a: 0, b: 0)
        var cursor = 0
        for hunk in hunks(diff.operations, context: context) {
            let skipped = counts(diff.operations[cursor..<hunk.lowerBound])
            before = (before.a + skipped.a, before.b + skipped.b)
            let inside = counts(diff.operations[hunk])
            out += "@@ -\(range(before.a, inside.a)) +\(range(before.b, inside.b)) @@\n"
            for operation in diff.operations[hunk] {
                switch operation {
                case .equal(let index, _): append(" ", diff.a[index], to: &out)
                case .delete(let index): append("-", diff.a[index], to: &out)
                case .insert(let index): append("+", diff.b[index], to: &out)
                }
            }
            before = (before.a + inside.a, before.b + inside.b)
            cursor = hunk.upperBound
        }
        return out
    }

    /// The ranges of operations that make up each hunk: every change with up to `context` equal
    /// lines either side; hunks whose contexts would touch or overlap are merged into one.
    package static func hunks(_ operations: [LineDiff.Operation], context: Int) -> [Range<Int>] {
        let changes = operations.indices.filter { if case .equal = operations[$0] { false } else { true } }
        guard var first = changes.first else { return [] }
        var result: [Range<Int>] = []
        var last = first
        for change in changes.dropFirst() {
            if change - last - 1 > 2 * context {
                result.append(max(0, first - context)..<min(operations.count, last + context + 1))
                first = change
            }
            last = change
        }
        result.append(max(0, first - context)..<min(operations.count, last + context + 1))
        return result
    }

    /// How many lines of the old and the new text `operations` cover.
    private static func counts(_ operations: ArraySlice<LineDiff.Operation>) -> (a: Int, b: Int) {
        var a = 0, b = 0
        for operation in operations {
            switch operation {
            case .equal: a += 1; b += 1
            case .delete: a += 1
            case .insert: b += 1
            }
        }
        return (a, b)
    }

    /// One side of a hunk header, after `before` lines, with GNU diff's conventions: a count of 1
    /// is left out, and an empty side names the line before it (`0,0` at the very start).
    private static func range(_ before: Int, _ count: Int) -> String {
        switch count {
        case 0: "\(before),0"
        case 1: "\(before + 1)"
        default: "\(before + 1),\(count)"
        }
    }

    private static func append(_ prefix: String, _ line: ArraySlice<UInt8>, to out: inout String) {
        out += prefix
        out += String(decoding: line, as: UTF8.self)
        if line.last != UInt8(ascii: "\n") {
            out += "\n\\ No newline at end of file\n"
        }
    }
}
