/// An accepted upgrade whose socket is being handed from lws' HTTP connection to a raw one, which the
/// transport speaks WebSocket on itself (see `ServiceLoop.takeOver`).
struct WebSocketTakeover {
    let upgrade: UpgradeRequest
    let handshake: WebSocketHandshake
}
