/// One `name=value` pair of a request's query string, already percent-decoded by libwebsockets
/// (`+` becomes a space). A bare `name` has an empty value.
package struct QueryItem: Sendable, Hashable {
    package var name: String
    package var value: String

    package init(name: String, value: String) {
        self.name = name
        self.value = value
    }

    /// Splits one decoded query fragment at its first `=`.
    init(fragment: String) {
        if let equals = fragment.firstIndex(of: "=") {
            self.init(name: String(fragment[..<equals]), value: String(fragment[fragment.index(after: equals)...]))
        } else {
            self.init(name: fragment, value: "")
        }
    }
}

extension [QueryItem] {
    /// The items as a dictionary; when a name repeats, the first occurrence wins.
    var firstValueByName: [String: String] {
        var result: [String: String] = [:]
        for item in self where result[item.name] == nil {
            result[item.name] = item.value
        }
        return result
    }
}
