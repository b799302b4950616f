/// How big a document built from one message may get, and how much work building it may take: the
/// bound that keeps a small JSON Patch (say 30 `copy` operations that each double the document) from
/// holding the app for seconds and gigabytes.
///
/// Sizes are *weights*, about the bytes of the value's compact serialization: 2 per value, plus the
/// UTF-8 length of each string and each member name (+3).
package struct JSONSizeLimit: Sendable, Equatable {
    /// The largest weight of a built document, and the most weight a patch may copy, insert or shift.
    package var weight: Int
    /// The deepest nesting of a built document (the parser's cap, so the result can be read back).
    package var depth: Int

    package init(weight: Int, depth: Int = 64) {
        self.weight = weight
        self.depth = depth
    }

    /// The limit for documents edited through messages of at most `messageBytes`: twice what one message holds.
    package init(messageBytes: Int, depth: Int = 64) {
        self.init(weight: 2 * messageBytes, depth: depth)
    }

    /// The limit for the default 1 MiB message cap.
    package static let `default` = JSONSizeLimit(messageBytes: 1 << 20)
}

extension JSONValue {
    /// The value's weight (see ``JSONSizeLimit``), counting no further than just past `limit`, and
    /// nil when it nests deeper than `depth` levels.
    package func weight(upTo limit: Int, depth: Int) -> Int? {
        var total = 0
        return accumulateWeight(into: &total, limit: limit, depthLeft: depth) ? total : nil
    }

    /// The value's weight when it stays within `limit` in weight and depth, nil otherwise.
    package func weight(within limit: JSONSizeLimit) -> Int? {
        guard let weight = weight(upTo: limit.weight, depth: limit.depth), weight <= limit.weight else { return nil }
        return weight
    }

    /// Whether the value stays within `limit` in weight and depth.
    package func fits(_ limit: JSONSizeLimit) -> Bool {
        weight(within: limit) != nil
    }

    private func accumulateWeight(into total: inout Int, limit: Int, depthLeft: Int) -> Bool {
        total += 2
        switch self {
        case .string(let text):
            total += text.utf8.count
        case .array(let elements):
            guard depthLeft > 0 else { return false }
            for element in elements where total <= limit {
                guard element.accumulateWeight(into: &total, limit: limit, depthLeft: depthLeft - 1) else { return false }
            }
        case .object(let members):
            guard depthLeft > 0 else { return false }
            for (key, value) in members where total <= limit {
                total += key.utf8.count + 3
                guard value.accumulateWeight(into: &total, limit: limit, depthLeft: depthLeft - 1) else { return false }
            }
        default:
            break
        }
        return true
    }
}
