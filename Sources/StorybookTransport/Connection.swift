/// What the loop knows about one lws connection. A reference type so that handlers mutate the one
/// record in place (big buffers inside are never copied). Loop-thread only.
final class Connection {
    let id: ConnectionID
    let wsi: OpaquePointer
    /// The HTTP transaction in progress, if any.
    var exchange: HTTPExchange?
    /// Set once the connection is a WebSocket.
    @exclusivity(unchecked) var webSocket: WebSocketSession?  // loop thread only; read once per delivery

    init(id: ConnectionID, wsi: OpaquePointer) {
        self.id = id
        self.wsi = wsi
    }
}
