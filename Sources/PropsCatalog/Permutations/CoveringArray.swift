/// Which combinations of dimension values become stories: rows of value positions, one per
/// dimension. Pure and deterministic: the same counts give the same rows.
package enum CoveringArray {
    /// Every combination (odometer order, the first dimension slowest).
    package static func product(_ counts: [Int]) -> [[Int]] {
        var rows: [[Int]] = [[]]
        for count in counts {
            rows = rows.flatMap { row in (0..<count).map { row + [$0] } }
        }
        return rows
    }

    /// How many combinations the full product has, saturating instead of overflowing.
    package static func productSize(_ counts: [Int]) -> Int {
        counts.reduce(1) { size, count in
            let (result, overflow) = size.multipliedReportingOverflow(by: count)
            return overflow ? Int.max : result
        }
    }

    /// All-pairs: rows in which every pair of values of every two dimensions appears at least once.
    /// In-parameter-order growth (IPOG): the first two dimensions' product, then each further
    /// dimension is added to the rows (horizontal growth, greedily covering the most missing pairs)
    /// and rows are added for the pairs still missing (vertical growth). Positions nothing needs
    /// are filled with `filler` (the base value's position), so rows differ from the base only
    /// where a pair asks for it.
    package static func allPairs(_ counts: [Int], filler: [Int]) -> [[Int]] {
        let n = counts.count
        guard n > 2 else { return product(counts) }
        // Larger dimensions first give smaller arrays; the order is undone at the end.
        let order = counts.indices.sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }
        let c = order.map { counts[$0] }
        var rows: [[Int?]] = product([c[0], c[1]]).map { $0 + Array(repeating: nil, count: n - 2) }
        for k in 2..<n {
            // missing[j][a][b]: the pair (dimension j = a, dimension k = b) is in no row yet.
            var missing = (0..<k).map { j in Array(repeating: Array(repeating: true, count: c[k]), count: c[j]) }
            var missingCount = (0..<k).reduce(0) { $0 + c[$1] * c[k] }
            func cover(_ row: [Int?]) {
                guard let b = row[k] else { return }
                for j in 0..<k {
                    if let a = row[j], missing[j][a][b] { missing[j][a][b] = false; missingCount -= 1 }
                }
            }
            for r in rows.indices {
                var best = -1, bestGain = 0
                for b in 0..<c[k] {
                    var gain = 0
                    for j in 0..<k { if let a = rows[r][j], missing[j][a][b] { gain += 1 } }
                    if gain > bestGain { best = b; bestGain = gain }
                }
                guard best >= 0 else { continue }
                rows[r][k] = best
                cover(rows[r])
            }
            guard missingCount > 0 else { continue }
            for j in 0..<k {
                for a in 0..<c[j] {
                    for b in 0..<c[k] where missing[j][a][b] {
                        if let r = rows.firstIndex(where: { ($0[j] == a || $0[j] == nil) && ($0[k] == b || $0[k] == nil) }) {
                            rows[r][j] = a
                            rows[r][k] = b
                            // Pairs of k with every other dimension of this row may be new too.
                            cover(rows[r])
                        } else {
                            var row = [Int?](repeating: nil, count: n)
                            row[j] = a
                            row[k] = b
                            rows.append(row)
                            cover(row)
                        }
                    }
                }
            }
        }
        var result: [[Int]] = []
        var seen = Set<[Int]>()
        for row in rows {
            var original = [Int](repeating: 0, count: n)
            for (position, dimension) in order.enumerated() { original[dimension] = row[position] ?? filler[dimension] }
            if seen.insert(original).inserted { result.append(original) }
        }
        return result
    }
}
