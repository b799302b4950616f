extension JSONValue {
    /// The pointer to the first place (document order, object keys sorted) holding a value equal
    /// to `target`; nil when there is none.
    package func firstPath(of target: JSONValue) -> JSONPointer? {
        if self == target { return JSONPointer() }
        switch self {
        case .object(let members):
            for key in members.keys.sorted() {
                if let path = members[key]!.firstPath(of: target) { return JSONPointer(tokens: [key] + path.tokens) }
            }
        case .array(let elements):
            for (index, element) in elements.enumerated() {
                if let path = element.firstPath(of: target) { return JSONPointer(tokens: [String(index)] + path.tokens) }
            }
        default:
            break
        }
        return nil
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
