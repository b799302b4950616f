extension EditorSchema {
    /// Every path a hint can name, in schema order: object fields, union cases and their payload
    /// fields, `*` for array elements and dictionary values.
    package var paths: [String] {
        var result: [String] = []
        collectPaths(prefix: JSONPointer(), into: &result, depth: 0)
        return result
    }

    private func collectPaths(prefix: JSONPointer, into result: inout [String], depth: Int) {
        guard depth < 32 else { return }
        switch self {
        case .optional(let wrapped):
            wrapped.collectPaths(prefix: prefix, into: &result, depth: depth)
        case .object(_, let fields):
            for field in fields {
                let path = prefix.appending(field.name)
                result.append(path.description)
                field.schema.collectPaths(prefix: path, into: &result, depth: depth + 1)
            }
        case .union(_, let cases):
            for unionCase in cases {
                for field in unionCase.fields {
                    let path = prefix.appending(unionCase.name).appending(field.name)
                    result.append(path.description)
                    field.schema.collectPaths(prefix: path, into: &result, depth: depth + 1)
                }
            }
        case .array(let items):
            items.collectPaths(prefix: prefix.appending("*"), into: &result, depth: depth + 1)
        case .dictionary(let values):
            values.collectPaths(prefix: prefix.appending("*"), into: &result, depth: depth + 1)
        default:
            break
        }
    }

    /// The existing path closest to `path` by edit distance (ties: the first in schema order).
    package func nearestPath(to path: String) -> String? {
        let target = Array(path.utf8)
        return paths.min { Self.distance(Array($0.utf8), target) < Self.distance(Array($1.utf8), target) }
    }

    /// The Levenshtein distance between two byte strings.
    private static func distance(_ a: [UInt8], _ b: [UInt8]) -> Int {
        var previous = Array(0...b.count)
        for (i, x) in a.enumerated() {
            var current = [i + 1] + Array(repeating: 0, count: b.count)
            for (j, y) in b.enumerated() {
                current[j + 1] = min(previous[j + 1] + 1, current[j] + 1, previous[j] + (x == y ? 0 : 1))
            }
            previous = current
        }
        return previous[b.count]
    }
}
