import Foundation

extension PropsDecoding {
    /// The props an edit makes live: `sent` itself when `kept` (the decoded Props encoded again) is
    /// identical to it, else `kept`; or, when the round trip lost something, the error of
    /// `firstDifferenceInOrder`.
    ///
    /// Keeping `sent` when nothing differs lets the value share storage with the props it was
    /// patched from (a patch copies only the path it changes), so that the history diff skips the
    /// untouched subtrees by identity instead of comparing them deeply. Identical means the same
    /// value, not an equivalent one: same key sets, same bytes in strings and keys, numbers of the
    /// same form (`1` is not `1.0`), arrays in the same order. `reordered` is asked only when
    /// something differs, so the edits that keep everything (almost all) never pay for it.
    package static func keptValue(
        sent: JSONValue, kept: JSONValue, reordered: () -> Set<JSONPointer> = { [] }
    ) -> Result<JSONValue, PropsError> {
        switch match(sent: sent, kept: kept) {
        case .identical: return .success(sent)
        case .equivalent: return .success(kept)
        case .lost:
            if let error = firstDifferenceInOrder(sent: sent, kept: kept, at: JSONPointer(), reordered: reordered()) {
                return .failure(error)
            }
            return .success(kept)
        }
    }

    /// How much of `sent` a round trip kept, as far as a walk with no pointers built and no keys
    /// sorted can tell.
    private enum Match {
        /// The very value that was sent.
        case identical
        /// Everything sent, in canonical spelling or with members added (defaults, nulls).
        case equivalent
        /// Something differs: `firstDifferenceInOrder` decides (it may be a canonical reordering).
        case lost
    }

    /// Whether `firstDifferenceInOrder` finds nothing (and then whether `kept` is `sent` exactly): the same
    /// walk, with no pointers built and no keys sorted.
    private static func match(sent: JSONValue, kept: JSONValue) -> Match {
        switch (sent, kept) {
        case (.object(let given), .object(let known)):
            // What the memo gave back for a part decoded and encoded before is the part that was sent.
            if JSONValue.shareStorage(given, known) { return .identical }
            var result = given.count == known.count ? Match.identical : .equivalent
            for (key, value) in given {
                // A lookup also finds a key spelled in another Unicode normalization: not identical.
                guard let index = known.index(forKey: key) else { return .lost }
                let (knownKey, knownValue) = known[index]
                switch match(sent: value, kept: knownValue) {
                case .identical: if !key.hasSameUTF8(as: knownKey) { result = .equivalent }
                case .equivalent: result = .equivalent
                case .lost: return .lost
                }
            }
            return result
        case (.array(let given), .array(let known)) where given.count == known.count:
            // A reordering may be canonical: whether it is depends on the place, which this walk
            // does not track, so the walk with paths decides.
            if JSONValue.shareStorage(given, known) { return .identical }
            var result = Match.identical
            for index in given.indices {
                switch match(sent: given[index], kept: known[index]) {
                case .identical: break
                case .equivalent: result = .equivalent
                case .lost: return .lost
                }
            }
            return result
        case (.string(let given), .string(let known)):
            if given.hasSameUTF8(as: known) { return .identical }
            return isSameValue(sent, kept) ? .equivalent : .lost
        case (.double(let given), .double(let known)) where given.bitPattern == known.bitPattern:
            return .identical
        case (.double, _), (_, .double):
            return isSameValue(sent, kept) ? .equivalent : .lost
        default:
            if sent == kept { return .identical }
            return isSameValue(sent, kept) ? .equivalent : .lost
        }
    }

    /// The first field where `kept` (the decoded Props encoded again) differs from `sent` (what the
    /// edit sent) other than by canonical spelling, as the error that refuses the edit (from `path`
    /// down); nil when the Props type kept everything that was sent.
    ///
    /// Canonical spelling is what changes no value: object key order, a number's spelling (`2.0`
    /// for `2`, `1e2` for `100`, digits beyond what a `Double` field holds), a date's equivalent
    /// form (an offset for UTC, fraction digits beyond the microsecond), a UUID's letter case and, at the places
    /// `reordered` gives (where the encoder sorted a `Set` or an enum-keyed dictionary; patterns with
    /// `*` for any position, see `JSONValueEncoder.encodeNotingCanonicalOrder`), the order of elements
    /// that come back the same. Any other array keeps its order or the edit is refused. A member
    /// the type does not know is "unknown field"; a value the type does not keep (a `let` constant
    /// the synthesized `init(from:)` skips, a clamping property wrapper) names the value it keeps.
    private static func firstDifferenceInOrder(sent: JSONValue, kept: JSONValue, at path: JSONPointer, reordered: Set<JSONPointer>) -> PropsError? {
        switch (sent, kept) {
        case (.object(let given), .object(let known)):
            for key in given.keys.sorted() {
                guard let knownValue = known[key] else {
                    return PropsError(path: path.appending(key), message: "unknown field '\(key)'")
                }
                if let error = firstDifferenceInOrder(sent: given[key]!, kept: knownValue, at: path.appending(key), reordered: reordered) {
                    return error
                }
            }
            return nil
        case (.array(let given), .array(let known)) where given.count == known.count:
            var first: PropsError?
            for (index, pair) in zip(given, known).enumerated() {
                first = firstDifferenceInOrder(sent: pair.0, kept: pair.1, at: path.appending(String(index)), reordered: reordered)
                if first != nil { break }
            }
            guard let first else { return nil }
            return isReorderable(path, reordered) && isPermutation(given, of: known, at: path, reordered: reordered) ? nil : first
        default:
            return isSameValue(sent, kept) ? nil : notKept(kept, at: path)
        }
    }

    private static func notKept(_ kept: JSONValue, at path: JSONPointer) -> PropsError {
        var shown = kept.serialized()
        if shown.count > 80 { shown = String(shown.prefix(77)) + "..." }
        return PropsError(path: path, message: "the Props type does not keep the value sent: it keeps \(shown)")
    }

    /// Scalars equal up to spelling: numbers by value (or rounding to the double kept), strings
    /// exactly, as the same instant when both are ISO 8601 dates, or as the same UUID.
    private static func isSameValue(_ sent: JSONValue, _ kept: JSONValue) -> Bool {
        if sent == kept { return true }
        if let sentText = sent.numberText, let keptText = kept.numberText {
            if DecimalText(sentText) == DecimalText(keptText) { return true }
            if case .double(let double) = kept, let rounded = Double(sentText) { return rounded == double }
            return false
        }
        guard case .string(let sentText) = sent, case .string(let keptText) = kept else { return false }
        if let date = ISO8601.date(from: sentText) { return ISO8601.string(from: date) == keptText }
        // A UUID in either letter case (`uuidgen` on Linux and most databases write lowercase).
        if let sentUUID = UUID(uuidString: sentText), let keptUUID = UUID(uuidString: keptText) { return sentUUID == keptUUID }
        return false
    }

    /// Whether `path` is one of the `reordered` places (`*` in a place stands for any token).
    private static func isReorderable(_ path: JSONPointer, _ reordered: Set<JSONPointer>) -> Bool {
        reordered.contains { place in
            place.tokens.count == path.tokens.count && zip(place.tokens, path.tokens).allSatisfy { $0 == "*" || $0 == $1 }
        }
    }

    /// Whether `given` holds the same elements as `known` (each equal up to spelling, sets inside
    /// them in any order too), in any order.
    private static func isPermutation(_ given: [JSONValue], of known: [JSONValue], at path: JSONPointer, reordered: Set<JSONPointer>) -> Bool {
        guard given.count <= 2048 else { return false }
        var unmatched = Array(known.indices)
        for element in given {
            guard let position = unmatched.firstIndex(where: { index in
                match(sent: element, kept: known[index]) != .lost
                    || firstDifferenceInOrder(sent: element, kept: known[index], at: path.appending(String(index)), reordered: reordered) == nil
            }) else { return false }
            unmatched.remove(at: position)
        }
        return true
    }
}
