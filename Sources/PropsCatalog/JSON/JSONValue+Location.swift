extension JSONValue {
    /// The pointer to the first place (document order, object keys sorted) holding a value equal
    /// to `target`; nil when there is none.
    package func firstPath(of target: JSONValue) -> JSONPointer? {
        var found: JSONPointer?
        walk(at: []) { value, tokens in
            guard value == target else { return .descend }
            found = JSONPointer(tokens: tokens)
            return .stop
        }
        return found
    }

    /// Every place (document order, object keys sorted) whose value `matches`, with that value; the
    /// inside of a match is not looked into.
    package func places(where matches: (JSONValue) -> Bool) -> [(pointer: JSONPointer, value: JSONValue)] {
        var found: [(pointer: JSONPointer, value: JSONValue)] = []
        walk(at: []) { value, tokens in
            guard matches(value) else { return .descend }
            found.append((JSONPointer(tokens: tokens), value))
            return .skip
        }
        return found
    }

    /// What a walk does after visiting a value.
    private enum WalkStep { case descend, skip, stop }

    /// Visits this value and what it holds, depth first in document order, as `visit` says; false
    /// when it said stop.
    @discardableResult
    private func walk(at tokens: [String], _ visit: (JSONValue, [String]) -> WalkStep) -> Bool {
        switch visit(self, tokens) {
        case .stop: return false
        case .skip: return true
        case .descend: break
        }
        switch self {
        case .object(let members):
            for key in members.keys.sorted() where !members[key]!.walk(at: tokens + [key], visit) { return false }
        case .array(let elements):
            for (index, element) in elements.enumerated() where !element.walk(at: tokens + [String(index)], visit) { return false }
        default:
            break
        }
        return true
    }

    /// This value with the value at `pointer` (which must exist) replaced by `replacement`.
    package func replacing(at pointer: JSONPointer, with replacement: JSONValue) -> JSONValue {
        guard let token = pointer.tokens.first else { return replacement }
        let rest = JSONPointer(tokens: Array(pointer.tokens.dropFirst()))
        switch self {
        case .object(var members):
            guard let member = members[token] else { return self }
            members[token] = member.replacing(at: rest, with: replacement)
            return .object(members)
        case .array(var elements):
            guard let index = JSONPointer.arrayIndex(token), index < elements.count else { return self }
            elements[index] = elements[index].replacing(at: rest, with: replacement)
            return .array(elements)
        default:
            return self
        }
    }
}
