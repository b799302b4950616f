/// Who made a change, as they named themselves: a person in a browser, a script or an agent.
public struct ChangeAuthor: Sendable, Hashable {
    /// What kind of client the author used.
    public enum Kind: String, Sendable, Hashable, CaseIterable {
        case browser, script, agent
    }

    /// The name the client gave (`identify`), or an MCP client's name.
    public let name: String
    public let kind: Kind

    public init(name: String, kind: Kind) {
        self.name = name
        self.kind = kind
    }

    /// `{"name", "kind"}`.
    public var json: JSONValue {
        .object(["name": .string(name), "kind": .string(kind.rawValue)])
    }

    /// Reads `{"name", "kind"}`; nil when either member is missing or unknown.
    public init?(json: JSONValue) {
        guard let name = json["name"]?.stringValue, let kind = json["kind"]?.stringValue.flatMap(Kind.init(rawValue:)) else {
            return nil
        }
        self.init(name: name, kind: kind)
    }
}
