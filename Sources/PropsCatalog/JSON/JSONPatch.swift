/// An RFC 6902 JSON Patch: operations applied in order to a JSON document, all or nothing.
package struct JSONPatch: Sendable, Equatable {
    /// The operations, in the order they are applied.
    package var operations: [JSONPatchOperation]

    /// A patch from operations.
    package init(operations: [JSONPatchOperation]) {
        self.operations = operations
    }

    /// Reads the RFC 6902 form: an array of operation objects. Members an operation does not use are ignored.
    package init(json: JSONValue) throws(JSONPatchError) {
        guard case .array(let elements) = json else {
            throw JSONPatchError(
                kind: .malformed, operationIndex: nil, path: nil,
                message: "a JSON Patch must be an array of operations, not \(json.kindDescription)"
            )
        }
        var operations: [JSONPatchOperation] = []
        operations.reserveCapacity(elements.count)
        for (index, element) in elements.enumerated() {
            operations.append(try JSONPatchOperation(json: element, index: index))
        }
        self.operations = operations
    }

    /// The RFC 6902 form: an array of operation objects.
    package var json: JSONValue {
        .array(operations.map(\.json))
    }

    /// The document with every operation applied, or the first failure; `document` itself is never changed.
    ///
    /// The work is bounded by `limit`: the document's weight plus all that the operations insert, copy
    /// or shift may not exceed it, nor may the result nest deeper. Past it, the patch fails at once
    /// (kind `tooLarge`), so a patch of doubling `copy`s costs about as much as one message of its cap.
    /// `documentWeight` is the document's weight when it was measured within `limit` before (a story's
    /// live props): it is charged as it is rather than measured again.
    package func apply(to document: JSONValue, limit: JSONSizeLimit = .default, documentWeight: Int? = nil) throws(JSONPatchError) -> JSONValue {
        var budget = Budget(limit: limit)
        guard budget.spend(weightOf: document, measured: documentWeight) else {
            throw JSONPatchError(kind: .tooLarge, operationIndex: nil, path: "", message: "the document is already over the size limit")
        }
        var weight = RunningWeight(total: nil)
        return try apply(to: document, budget: &budget, weight: &weight)
    }

    /// ``apply(to:limit:documentWeight:)`` for a document whose weight was measured within `limit`,
    /// which also gives the result's weight: the document's, changed by what each operation put in
    /// and took out, so that a small patch of a large document does not cost a measure of the result.
    /// The result nests no deeper than `limit` allows (every value an operation puts deeper is checked
    /// where it goes), but its weight may exceed `limit.weight`: the caller compares it.
    package func apply(
        to document: JSONValue, limit: JSONSizeLimit, measuredWeight: Int
    ) throws(JSONPatchError) -> (document: JSONValue, weight: Int) {
        var budget = Budget(limit: limit)
        guard budget.spend(weightOf: document, measured: measuredWeight) else {
            throw JSONPatchError(kind: .tooLarge, operationIndex: nil, path: "", message: "the document is already over the size limit")
        }
        var weight = RunningWeight(total: measuredWeight)
        let result = try apply(to: document, budget: &budget, weight: &weight)
        return (result, weight.total!)
    }

    /// The document with every operation applied, with no work budget: for the patches a story's
    /// history and the journal recorded themselves, never for a client's.
    ///
    /// Their cost was bounded when the edits they record were accepted, and a recorded diff only
    /// adds, removes and replaces, so replaying it costs about the weight of the documents before
    /// and after it. It may still cost more than a client's edit may: three `move`s that swap two
    /// large fields are cheap, their diff replaces both.
    package func replay(on document: JSONValue) throws(JSONPatchError) -> JSONValue {
        var budget = Budget.unbounded
        return try apply(to: document, budget: &budget)
    }

    /// The document with every operation applied, charging what they insert, copy or shift to
    /// `budget`, which several patches may share (the entries of an imported recording). The document
    /// itself is not charged: whoever built or read it has paid for it.
    package func apply(to document: JSONValue, budget: inout Budget) throws(JSONPatchError) -> JSONValue {
        var weight = RunningWeight(total: nil)
        return try apply(to: document, budget: &budget, weight: &weight)
    }

    private func apply(to document: JSONValue, budget: inout Budget, weight: inout RunningWeight) throws(JSONPatchError) -> JSONValue {
        var result = document
        for (index, operation) in operations.enumerated() {
            do {
                try result.apply(operation, budget: &budget, weight: &weight)
            } catch {
                throw JSONPatchError(
                    kind: error.kind, operationIndex: index, path: operation.path.description,
                    message: "operation \(index) (\(operation.name)): \(error.reason)"
                )
            }
        }
        return result
    }
}

/// One RFC 6902 operation.
package enum JSONPatchOperation: Sendable, Equatable {
    /// Inserts into an array, sets an object member (replacing any), or replaces the whole document at `""`.
    case add(path: JSONPointer, value: JSONValue)
    /// Removes an existing object member or array element.
    case remove(path: JSONPointer)
    /// Replaces an existing value.
    case replace(path: JSONPointer, value: JSONValue)
    /// Removes the value at `from` and adds it at `path`.
    case move(from: JSONPointer, path: JSONPointer)
    /// Adds a copy of the value at `from` at `path`.
    case copy(from: JSONPointer, path: JSONPointer)
    /// Fails unless the value at `path` equals `value` as JSON (`1` equals `1.0`, members unordered).
    case test(path: JSONPointer, value: JSONValue)

    /// The `op` member: `add`, `remove`, `replace`, `move`, `copy` or `test`.
    package var name: String {
        switch self {
        case .add: "add"
        case .remove: "remove"
        case .replace: "replace"
        case .move: "move"
        case .copy: "copy"
        case .test: "test"
        }
    }

    /// The target location.
    package var path: JSONPointer {
        switch self {
        case .add(let path, _), .remove(let path), .replace(let path, _), .test(let path, _): path
        case .move(_, let path), .copy(_, let path): path
        }
    }

    /// The source location of `move` and `copy`.
    package var from: JSONPointer? {
        switch self {
        case .move(let from, _), .copy(let from, _): from
        case .add, .remove, .replace, .test: nil
        }
    }

    /// The value of `add`, `replace` and `test`.
    package var value: JSONValue? {
        switch self {
        case .add(_, let value), .replace(_, let value), .test(_, let value): value
        case .remove, .move, .copy: nil
        }
    }

    /// The RFC 6902 operation object.
    package var json: JSONValue {
        var members: [String: JSONValue] = ["op": .string(name), "path": .string(path.description)]
        if let from { members["from"] = .string(from.description) }
        if let value { members["value"] = value }
        return .object(members)
    }

    /// Reads one operation object; `index` is its position in the patch, for errors.
    fileprivate init(json: JSONValue, index: Int) throws(JSONPatchError) {
        let members = json.objectValue
        var op: String?
        func malformed(_ reason: String) -> JSONPatchError {
            // An error's path is always a JSON Pointer: the operation's own, when it is one.
            let rawPath = members?["path"]?.stringValue.flatMap { (try? JSONPointer(parsing: $0)) != nil ? $0 : nil }
            let label = op.map { "operation \(index) (\($0))" } ?? "operation \(index)"
            return JSONPatchError(kind: .malformed, operationIndex: index, path: rawPath, message: "\(label): \(reason)")
        }
        func string(_ key: String) throws(JSONPatchError) -> String {
            guard let member = members?[key] else { throw malformed("missing '\(key)' member") }
            guard case .string(let text) = member else {
                throw malformed("'\(key)' must be a string, not \(member.kindDescription)")
            }
            return text
        }
        func pointer(_ key: String) throws(JSONPatchError) -> JSONPointer {
            let text = try string(key)
            do {
                return try JSONPointer(parsing: text)
            } catch {
                throw malformed("'\(key)' is not a JSON Pointer: \(error.reason)")
            }
        }
        func value() throws(JSONPatchError) -> JSONValue {
            guard let value = members?["value"] else { throw malformed("missing 'value' member") }
            return value
        }

        guard members != nil else { throw malformed("an operation must be an object, not \(json.kindDescription)") }
        let name = try string("op")
        guard ["add", "remove", "replace", "move", "copy", "test"].contains(name) else {
            throw malformed("unknown op '\(name)' (expected add, remove, replace, move, copy or test)")
        }
        op = name
        let path = try pointer("path")
        switch name {
        case "add": self = .add(path: path, value: try value())
        case "remove": self = .remove(path: path)
        case "replace": self = .replace(path: path, value: try value())
        case "move": self = .move(from: try pointer("from"), path: path)
        case "copy": self = .copy(from: try pointer("from"), path: path)
        default: self = .test(path: path, value: try value())
        }
    }
}

extension JSONPatch {
    /// A small patch that turns `source` into `target`: `diff(from: a, to: b).apply(to: a)` equals `b`.
    ///
    /// Objects are compared member by member (add, remove or a nested diff per member); arrays of the
    /// same length element by element; arrays of different lengths keep their common start and end, the
    /// elements between are diffed pairwise and the rest removed or added (an item inserted into a long
    /// list is one `add`), unless more than ``arrayEditLimit`` elements change; anything else is replaced whole.
    /// Values are compared byte for byte (``JSONValue/isIdentical(to:)``): `1` and `1.0`, `0.0` and `-0.0`,
    /// and two spellings of a canonically equivalent string differ, so the patch reproduces `target` as written.
    package static func diff(from source: JSONValue, to target: JSONValue) -> JSONPatch {
        var operations: [JSONPatchOperation] = []
        appendDiff(from: source, to: target, at: JSONPointer(), into: &operations)
        return JSONPatch(operations: operations)
    }

    private static func appendDiff(
        from source: JSONValue, to target: JSONValue, at pointer: JSONPointer,
        into operations: inout [JSONPatchOperation]
    ) {
        // Containers are not compared whole first: their members are, each once, on the way down
        // (a whole comparison of a long list, and then of its items one by one, walked it twice).
        switch (source, target) {
        case (.object(let old), .object(let new)):
            guard !JSONValue.shareStorage(old, new) else { return }
            for key in old.keys.sorted() where new[key] == nil {
                operations.append(.remove(path: pointer.appending(key)))
            }
            // Identical members are skipped before their pointer is built: with storage shared (an
            // edit kept as sent), that is one identity check each. A key spelled differently but
            // canonically equivalent (the same key to a dictionary) is removed and added again.
            for (key, newValue) in new.sorted(by: { $0.key < $1.key }) {
                if let index = old.index(forKey: key) {
                    let (oldKey, oldValue) = old[index]
                    if !oldKey.hasSameUTF8(as: key) {
                        operations.append(.remove(path: pointer.appending(oldKey)))
                        operations.append(.add(path: pointer.appending(key), value: newValue))
                    } else if !oldValue.isAtOnceIdentical(to: newValue) {
                        appendDiff(from: oldValue, to: newValue, at: pointer.appending(key), into: &operations)
                    }
                } else {
                    operations.append(.add(path: pointer.appending(key), value: newValue))
                }
            }
        case (.array(let old), .array(let new)) where old.count == new.count:
            guard !JSONValue.shareStorage(old, new) else { return }
            for index in old.indices where !old[index].isAtOnceIdentical(to: new[index]) {
                appendDiff(from: old[index], to: new[index], at: pointer.appending(String(index)), into: &operations)
            }
        case (.array(let old), .array(let new)):
            if !appendArrayEdit(from: old, to: new, at: pointer, into: &operations) {
                operations.append(.replace(path: pointer, value: target))
            }
        default:
            guard !source.isIdentical(to: target) else { return }
            operations.append(.replace(path: pointer, value: target))
        }
    }
}

extension JSONPatch {
    /// The most elements an edit of an array of another length may touch before the array is replaced whole.
    static let arrayEditLimit = 16

    /// Appends the edit of an array whose length changed, keeping its common start and end: the
    /// elements between are diffed pairwise, then the old ones left are removed (last first) or the new
    /// ones left added. False, appending nothing, when more than `arrayEditLimit` elements change.
    private static func appendArrayEdit(
        from old: [JSONValue], to new: [JSONValue], at pointer: JSONPointer, into operations: inout [JSONPatchOperation]
    ) -> Bool {
        let shorter = min(old.count, new.count)
        var prefix = 0
        while prefix < shorter, old[prefix].isIdentical(to: new[prefix]) { prefix += 1 }
        var suffix = 0
        while suffix < shorter - prefix, old[old.count - 1 - suffix].isIdentical(to: new[new.count - 1 - suffix]) { suffix += 1 }
        let removed = old.count - suffix - prefix
        let added = new.count - suffix - prefix
        guard max(removed, added) <= arrayEditLimit else { return false }
        let paired = min(removed, added)
        for offset in 0..<paired where !old[prefix + offset].isIdentical(to: new[prefix + offset]) {
            appendDiff(from: old[prefix + offset], to: new[prefix + offset], at: pointer.appending(String(prefix + offset)), into: &operations)
        }
        for index in stride(from: prefix + removed - 1, through: prefix + paired, by: -1) {
            operations.append(.remove(path: pointer.appending(String(index))))
        }
        for index in (prefix + paired)..<(prefix + added) {
            operations.append(.add(path: pointer.appending(String(index)), value: new[index]))
        }
        return true
    }
}

// MARK: - Applying operations

/// Why one operation failed, before it is tied to its position in the patch.
private struct PatchFailure: Error {
    var kind: JSONPatchError.Kind
    var reason: String

    static func tooLarge(_ limit: JSONSizeLimit) -> PatchFailure {
        PatchFailure(kind: .tooLarge, reason: "the result would exceed the size limit (\(limit.weight) bytes, \(limit.depth) levels deep)")
    }
}

extension JSONPatch {
    /// What patches may still insert, copy or shift before they are refused as too large: one
    /// ``JSONSizeLimit``'s weight in all, spent by one patch or shared by several.
    package struct Budget: Sendable {
        /// The most weight that may be spent in all and the deepest nesting any charged value may
        /// reach; nil for ``unbounded``, where nothing is charged or refused.
        private let limit: JSONSizeLimit?
        /// The weight spent so far.
        private var spent = 0

        /// A budget of `limit`'s weight, nothing spent.
        package init(limit: JSONSizeLimit) {
            self.limit = limit
        }

        private init(unboundedBy: Void) {
            limit = nil
        }

        /// No bound at all: for replaying patches the server recorded itself (``JSONPatch/replay(on:)``).
        package static var unbounded: Budget { Budget(unboundedBy: ()) }

        /// Charges the weight of a whole document (one that was read or built: about what decoding it
        /// costs), or its weight `measured` before within this budget's limit; false when it does not
        /// fit what is left or nests too deep, and the work must stop.
        package mutating func spend(weightOf document: JSONValue, measured: Int? = nil) -> Bool {
            do {
                if let measured { try charge(measured) } else { try charge(document, depth: 0) }
                return true
            } catch {
                return false
            }
        }
    }
}

extension JSONPatch.Budget {
    /// Charges `value`'s weight, placed `depth` containers deep; the weight charged (nil when unbounded).
    @discardableResult
    fileprivate mutating func charge(_ value: JSONValue, depth: Int) throws(PatchFailure) -> Int? {
        guard let limit else { return nil }
        guard depth <= limit.depth, let weight = value.weight(upTo: limit.weight - spent, depth: limit.depth - depth) else {
            throw .tooLarge(limit)
        }
        try charge(weight)
        return weight  // exact: had the count stopped short past the limit, the charge would have failed
    }

    /// Charges `units` of work (shifting array elements).
    fileprivate mutating func charge(_ units: Int) throws(PatchFailure) {
        guard let limit else { return }
        spent += units
        guard spent <= limit.weight else { throw .tooLarge(limit) }
    }
}

extension PatchFailure {
    static func invalidTarget(_ reason: String) -> PatchFailure {
        PatchFailure(kind: .invalidTarget, reason: reason)
    }
}

extension JSONPointer {
    /// The pointer text for messages, naming the root in words since its text is empty.
    fileprivate var display: String {
        tokens.isEmpty ? "the document root" : description
    }
}

/// The weight of the document a patch is building, when the weight of the document it started from
/// is known: each operation adds what it puts in and takes off what it takes out.
private struct RunningWeight {
    /// The weight so far; nil when it is not followed (the starting weight is not known).
    var total: Int?

    /// Adds `change` (evaluated only when the weight is followed).
    mutating func add(_ change: @autoclosure () -> Int) {
        if let total { self.total = total + change() }
    }

    /// Sets the weight to `weight`'s (the document replaced whole).
    mutating func set(_ weight: @autoclosure () -> Int) {
        if total != nil { total = weight() }
    }
}

extension JSONValue {
    /// The whole value's weight, however large or deep.
    fileprivate var fullWeight: Int {
        weight(upTo: .max, depth: .max)!
    }

    /// What a member named `key` weighs besides its value.
    fileprivate static func memberWeight(_ key: String) -> Int {
        key.utf8.count + 3
    }

    fileprivate mutating func apply(
        _ operation: JSONPatchOperation, budget: inout JSONPatch.Budget, weight: inout RunningWeight
    ) throws(PatchFailure) {
        switch operation {
        case .add(let path, let value):
            let charged = try budget.charge(value, depth: path.tokens.count)
            try add(value, weighing: charged, at: path, budget: &budget, weight: &weight)
        case .remove(let path):
            _ = try remove(at: path, budget: &budget, weight: &weight)
        case .replace(let path, let value):
            let charged = try budget.charge(value, depth: path.tokens.count)
            try modify(at: path.tokens) { target throws(PatchFailure) in
                weight.add((charged ?? value.fullWeight) - target.fullWeight)
                target = value
            }
        case .move(let from, let path):
            guard let moved = value(at: from) else {
                throw .invalidTarget("'from' location \(from.display) does not exist")
            }
            guard from != path else { return }
            guard !path.hasPrefix(from) else {
                throw .invalidTarget("cannot move \(from.display) into its own child \(path.display)")
            }
            if path.tokens.count > from.tokens.count {
                try budget.charge(moved, depth: path.tokens.count)  // deeper: check the nesting it reaches
            } else {
                try budget.charge(1)
            }
            let removed = try remove(at: from, budget: &budget, weight: &weight)
            try add(removed, weighing: nil, at: path, budget: &budget, weight: &weight)
        case .copy(let from, let path):
            guard let copied = value(at: from) else {
                throw .invalidTarget("'from' location \(from.display) does not exist")
            }
            let charged = try budget.charge(copied, depth: path.tokens.count)
            try add(copied, weighing: charged, at: path, budget: &budget, weight: &weight)
        case .test(let path, let expected):
            try budget.charge(expected, depth: 0)
            guard let actual = value(at: path) else {
                throw PatchFailure(kind: .testFailed, reason: "\(path.display) does not exist")
            }
            guard actual.jsonEquals(expected) else {
                throw PatchFailure(
                    kind: .testFailed,
                    reason: "\(path.display) is \(actual.preview), expected \(expected.preview)"
                )
            }
        }
    }

    /// Compact JSON cut short for error messages.
    private var preview: String {
        let text = serialized()
        return text.count <= 80 ? text : String(text.prefix(77)) + "..."
    }

    /// Adds `value`, whose weight is `valueWeight` when it was measured, at `path`.
    private mutating func add(
        _ value: JSONValue, weighing valueWeight: Int?, at path: JSONPointer, budget: inout JSONPatch.Budget,
        weight: inout RunningWeight
    ) throws(PatchFailure) {
        guard let key = path.tokens.last else {
            weight.set(valueWeight ?? value.fullWeight)
            self = value
            return
        }
        try modify(at: Array(path.tokens.dropLast())) { container throws(PatchFailure) in
            switch container {
            case .object(var members):
                // the value in, and the member it replaces out (or, for a new member, its name in)
                weight.add((valueWeight ?? value.fullWeight) + (members[key].map { -$0.fullWeight } ?? Self.memberWeight(key)))
                container = .null
                members[key] = value
                container = .object(members)
            case .array(var elements):
                let index: Int
                if key == "-" {
                    index = elements.count
                } else if let position = JSONPointer.arrayIndex(key) {
                    guard position <= elements.count else {
                        throw .invalidTarget(
                            "cannot add \(path.display): index \(position) is past the end of an array of \(elements.count)"
                        )
                    }
                    index = position
                } else {
                    throw .invalidTarget("cannot add \(path.display): '\(key)' is not a valid array index")
                }
                try budget.charge((elements.count - index) / 8)
                weight.add(valueWeight ?? value.fullWeight)
                container = .null
                elements.insert(value, at: index)
                container = .array(elements)
            default:
                throw .invalidTarget(
                    "cannot add \(path.display): \(path.parent!.display) is \(container.kindDescription), not an object or array"
                )
            }
        }
    }

    private mutating func remove(
        at path: JSONPointer, budget: inout JSONPatch.Budget, weight: inout RunningWeight
    ) throws(PatchFailure) -> JSONValue {
        guard let key = path.tokens.last else { throw .invalidTarget("cannot remove the document root") }
        return try modify(at: Array(path.tokens.dropLast())) { container throws(PatchFailure) in
            switch container {
            case .object(var members) where members[key] != nil:
                container = .null
                let removed = members.removeValue(forKey: key)!
                container = .object(members)
                weight.add(-(removed.fullWeight + Self.memberWeight(key)))
                return removed
            case .array(var elements):
                let index = try Self.existingIndex(key, count: elements.count, pointer: path)
                try budget.charge((elements.count - index) / 8)
                container = .null
                let removed = elements.remove(at: index)
                container = .array(elements)
                weight.add(-removed.fullWeight)
                return removed
            default:
                throw .invalidTarget("\(path.display) does not exist")
            }
        }
    }

    /// Runs `body` on the value at `tokens[depth...]`, in place; fails naming the first location that does not exist.
    private mutating func modify<Result>(
        at tokens: [String], depth: Int = 0,
        _ body: (inout JSONValue) throws(PatchFailure) -> Result
    ) throws(PatchFailure) -> Result {
        guard depth < tokens.count else { return try body(&self) }
        let token = tokens[depth]
        var pointer: JSONPointer { JSONPointer(tokens: Array(tokens[...depth])) }
        switch self {
        case .object(var members):
            guard members[token] != nil else { throw .invalidTarget("\(pointer.display) does not exist") }
            self = .null
            defer { self = .object(members) }
            return try members[token]!.modify(at: tokens, depth: depth + 1, body)
        case .array(var elements):
            let index = try Self.existingIndex(token, count: elements.count, pointer: pointer)
            self = .null
            defer { self = .array(elements) }
            return try elements[index].modify(at: tokens, depth: depth + 1, body)
        default:
            throw .invalidTarget("\(pointer.display) does not exist: \(pointer.parent!.display) is \(kindDescription)")
        }
    }

    /// The index `token` names in an array of `count` elements, when that element exists.
    private static func existingIndex(
        _ token: String, count: Int, pointer: @autoclosure () -> JSONPointer
    ) throws(PatchFailure) -> Int {
        guard let index = JSONPointer.arrayIndex(token) else {
            let problem =
                token == "-" ? "'-' names the element after the last one" : "'\(token)' is not a valid array index"
            throw .invalidTarget("\(pointer().display) does not exist: \(problem)")
        }
        guard index < count else {
            throw .invalidTarget(
                "\(pointer().display) does not exist: index \(index) is out of bounds for an array of \(count)"
            )
        }
        return index
    }
}
