import PropsCatalog

/// One MCP session: the client that initialized it, the protocol version agreed on, and who its
/// changes are attributed to.
struct MCPClient: Sendable {
    /// The `Mcp-Session-Id` the server handed out.
    let sessionID: String
    /// `clientInfo.name` from `initialize` (`mcp` when the client sent none).
    let name: String
    let protocolVersion: String
    /// When it was last used, for dropping the longest unused session when there are too many.
    var lastUsed: UInt64

    /// Its id in presence lists: `mcp:` and the start of the session id.
    var viewerID: String { "mcp:" + sessionID.prefix(8) }

    /// `mcp:<client name>`, with the client as an agent author, on every change it makes.
    var source: ChangeSource {
        ChangeSource("mcp:\(name)", author: ChangeAuthor(name: name, kind: .agent))
    }
}
