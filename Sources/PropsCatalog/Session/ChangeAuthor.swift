/// Who made a change, as they named themselves: a person in a browser, a script or an agent.
package struct ChangeAuthor: Sendable, Hashable {
    /// What kind of client the author used.
    package enum Kind: String, Sendable, Hashable, CaseIterable {
        case browser, script, agent
    }

    /// The name the client gave (`identify`), or an MCP client's name.
    package let name: String
    package let kind: Kind

    package init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// `{"name", "kind"}`.
    package var json: JSONValue {
        .object(["name": .string(name), "kind": .string(kind.rawValue)])
    }

    /// Reads `{"name", "kind"}`; nil when either member is missing or unknown.
    package init?(json: JSONValue) {
        guard let name = json["name"]?.stringValue, let kind = json["kind"]?.stringValue.flatMap(Kind.init(rawValue:)) else {
            return nil
        }
        self.init(name: name, kind: kind)
    }
}
