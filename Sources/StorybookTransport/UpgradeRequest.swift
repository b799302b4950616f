/// A WebSocket handshake on the WebSocket path, shown to the delegate before it is accepted.
package struct UpgradeRequest: Sendable {
    /// The decoded path (always the configured WebSocket path, `/ws` by default).
    package var path: String
    package var queryItems: [QueryItem]
    /// Header values by lowercased name: `origin`, `host`, `sec-websocket-protocol`, `authorization`,
    /// `cookie`, `user-agent`, ...
    package var headers: [String: String]
    /// The subprotocol the handshake answer selects: the configured one (`storybook.v1`) when the client
    /// offered it, `nil` when the client offered none.
    package var subprotocol: String?

    package init(path: String, queryItems: [QueryItem] = [], headers: [String: String] = [:], subprotocol: String? = nil) {
        self.path = path
        self.queryItems = queryItems
        self.headers = headers
        self.subprotocol = subprotocol
    }

    /// The query as a dictionary; when a name repeats, the first occurrence wins.
    package var query: [String: String] { queryItems.firstValueByName }
}

/// The delegate's verdict on an ``UpgradeRequest``.
package enum UpgradeDecision: Sendable {
    /// Complete the handshake; the delegate hears `didOpen` next.
    case accept
    /// Answer the handshake with a plain HTTP response instead (the connection stays HTTP). The body is
    /// sent as `application/json; charset=utf-8`.
    case reject(status: Int, body: [UInt8])
}
