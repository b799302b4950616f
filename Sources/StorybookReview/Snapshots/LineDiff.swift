/// A shortest line edit script between two texts: Myers' O(ND) algorithm in linear space (the
/// "middle snake" bisection of Myers 1986, section 4b), after trimming the common prefix and suffix.
///
/// Lines keep their `\n`, so a last line without one differs from the same line with one, and
/// bytes that are not UTF-8 compare as bytes.
package struct LineDiff {
    /// One line of the script: kept, deleted from `a`, or inserted from `b`.
    package enum Operation: Equatable {
        case equal(a: Int, b: Int)
        case delete(a: Int)
        case insert(b: Int)
    }

    /// The lines of the old text, each with its `\n` when it has one.
    package let a: [ArraySlice<UInt8>]
    /// The lines of the new text.
    package let b: [ArraySlice<UInt8>]
    /// The script, in order; within every run of changes, deletions come before insertions.
    package let operations: [Operation]

    package init(_ old: [UInt8], _ new: [UInt8]) {
        a = Self.lines(old)
        b = Self.lines(new)
        var symbols: [ArraySlice<UInt8>: Int] = [:]
        let left = a.map { line in Self.symbol(line, &symbols) }
        let right = b.map { line in Self.symbol(line, &symbols) }
        var builder = ScriptBuilder(a: left, b: right)
        builder.diff(0, left.count, 0, right.count)
        operations = Self.deletionsFirst(builder.operations)
    }

    /// Whether the texts differ.
    package var hasChanges: Bool {
        operations.contains { if case .equal = $0 { false } else { true } }
    }

    /// How many lines the script deletes and inserts: the edit distance.
    package var editCount: Int {
        operations.reduce(0) { count, operation in
            if case .equal = operation { count } else { count + 1 }
        }
    }

    /// Splits after every `\n`; a text that does not end with one has a last line without it.
    package static func lines(_ bytes: [UInt8]) -> [ArraySlice<UInt8>] {
        var result: [ArraySlice<UInt8>] = []
        var start = 0
        for index in bytes.indices where bytes[index] == UInt8(ascii: "\n") {
            result.append(bytes[start...index])
            start = index + 1
        }
        if start < bytes.count { result.append(bytes[start...]) }
        return result
    }

    private static func symbol(_ line: ArraySlice<UInt8>, _ symbols: inout [ArraySlice<UInt8>: Int]) -> Int {
        if let known = symbols[line] { return known }
        symbols[line] = symbols.count
        return symbols.count - 1
    }

    /// Reorders each run of changes so that its deletions precede its insertions, as unified diffs show them.
    private static func deletionsFirst(_ operations: [Operation]) -> [Operation] {
        var result: [Operation] = []
        result.reserveCapacity(operations.count)
        var deletions: [Operation] = []
        var insertions: [Operation] = []
        func flush() {
            result += deletions
            result += insertions
            deletions.removeAll(keepingCapacity: true)
            insertions.removeAll(keepingCapacity: true)
        }
        for operation in operations {
            switch operation {
            case .equal: flush(); result.append(operation)
            case .delete: deletions.append(operation)
            case .insert: insertions.append(operation)
            }
        }
        flush()
        return result
    }
}

/// The recursive part of ``LineDiff``: finds a point on a shortest path with the middle snake and
/// diffs both halves, so memory stays linear in the input whatever the number of changes.
private struct ScriptBuilder {
    package let a: [Int]
    package let b: [Int]
    package var operations: [LineDiff.Operation] = []

    package init(a: [Int], b: [Int]) {
        self.a = a
        self.b = b
        operations.reserveCapacity(max(a.count, b.count))
    }

    /// Appends the script turning `a[aLow..<aHigh]` into `b[bLow..<bHigh]`.
    package mutating func diff(_ aLow: Int, _ aHigh: Int, _ bLow: Int, _ bHigh: Int) {
        var aLow = aLow, bLow = bLow, aHigh = aHigh, bHigh = bHigh
        while aLow < aHigh, bLow < bHigh, a[aLow] == b[bLow] {
            operations.append(.equal(a: aLow, b: bLow))
            aLow += 1
            bLow += 1
        }
        var suffix = 0
        while aLow < aHigh, bLow < bHigh, a[aHigh - 1] == b[bHigh - 1] {
            aHigh -= 1
            bHigh -= 1
            suffix += 1
        }
        if aLow == aHigh {
            for line in bLow..<bHigh { operations.append(.insert(b: line)) }
        } else if bLow == bHigh {
            for line in aLow..<aHigh { operations.append(.delete(a: line)) }
        } else {
            var (x, y) = middle(aLow, aHigh, bLow, bHigh)
            if (x == aLow && y == bLow) || (x == aHigh && y == bHigh) {
                // Never expected; a split that makes progress keeps the script valid, if longer.
                (x, y) = (aLow + 1, bLow)
            }
            diff(aLow, x, bLow, y)
            diff(x, aHigh, y, bHigh)
        }
        for offset in 0..<suffix {
            operations.append(.equal(a: aHigh + offset, b: bHigh + offset))
        }
    }

    /// A point `(x, y)` on a shortest edit path through the box, strictly inside it in edit terms:
    /// the end of the forward snake where the forward and backward searches first overlap.
    /// Called only with two non-empty ranges whose first and last lines differ.
    private func middle(_ aLow: Int, _ aHigh: Int, _ bLow: Int, _ bHigh: Int) -> (Int, Int) {
        let n = aHigh - aLow, m = bHigh - bLow
        let maxD = (n + m + 1) / 2
        let offset = maxD + 1
        let width = 2 * offset + 1
        // forward[k] is the furthest x reached on diagonal k = x - y; backward[k] the same measured
        // from the box's far corner. -1 marks diagonals not reached yet.
        var forward = [Int](repeating: -1, count: width)
        var backward = [Int](repeating: -1, count: width)
        forward[offset + 1] = 0
        backward[offset + 1] = 0
        let delta = n - m
        let checkOnForward = delta % 2 != 0
        // Diagonals that ran off the box are not searched again.
        var forwardStart = 0, forwardEnd = 0, backwardStart = 0, backwardEnd = 0
        for d in 0..<maxD {
            var k = -d + forwardStart
            while k <= d - forwardEnd {
                let index = offset + k
                var x = (k == -d || (k != d && forward[index - 1] < forward[index + 1])) ? forward[index + 1] : forward[index - 1] + 1
                var y = x - k
                while x < n, y < m, a[aLow + x] == b[bLow + y] {
                    x += 1
                    y += 1
                }
                forward[index] = x
                if x > n {
                    forwardEnd += 2
                } else if y > m {
                    forwardStart += 2
                } else if checkOnForward {
                    let mirrored = offset + delta - k
                    if mirrored >= 0, mirrored < width, backward[mirrored] != -1, x >= n - backward[mirrored] {
                        return (aLow + x, bLow + y)
                    }
                }
                k += 2
            }
            k = -d + backwardStart
            while k <= d - backwardEnd {
                let index = offset + k
                var x = (k == -d || (k != d && backward[index - 1] < backward[index + 1])) ? backward[index + 1] : backward[index - 1] + 1
                var y = x - k
                while x < n, y < m, a[aHigh - 1 - x] == b[bHigh - 1 - y] {
                    x += 1
                    y += 1
                }
                backward[index] = x
                if x > n {
                    backwardEnd += 2
                } else if y > m {
                    backwardStart += 2
                } else if !checkOnForward {
                    let mirrored = offset + delta - k
                    if mirrored >= 0, mirrored < width, forward[mirrored] != -1 {
                        let forwardX = forward[mirrored]
                        let forwardY = forwardX - (mirrored - offset)
                        if forwardX >= n - x {
                            return (aLow + forwardX, bLow + forwardY)
                        }
                    }
                }
                k += 2
            }
        }
        // Unreachable for non-empty ranges: the searches always meet by maxD.
        return (aLow, bLow)
    }
}
