/// What the application layer does with traffic. The transport holds its delegate weakly.
///
/// Every method is called **on the transport's loop thread**, the one thread that runs libwebsockets. They
/// must return quickly and never block: hand the work to a queue, a task or an actor and answer later
/// through ``Transport/respond(to:with:)``, ``Transport/send(_:to:coalescingKey:)`` and
/// ``Transport/close(_:code:reason:)``, which may be called from any thread (including this one).
package protocol TransportDelegate: AnyObject, Sendable {
    /// A complete HTTP request arrived on `id`. Answer it, exactly once, with `respond(to:with:)`; the
    /// connection reads no further request until then.
    func transport(_ transport: Transport, didReceive request: HTTPRequest, id: ConnectionID)

    /// Asked first for every complete request: an answer the delegate has ready in memory, given at once
    /// on the loop thread with no hand-over (a cached projection, a health check), or nil to be asked
    /// `didReceive` instead. Must be cheap: `request` reads headers and query only when asked, and a
    /// ``PreparedResponse`` kept with the cached body is written without rebuilding its head. The
    /// default answers nil.
    func transport(_ transport: Transport, immediateResponseTo request: RequestHead) -> PreparedResponse?

    /// A client asks to open a WebSocket on the WebSocket path. Decide synchronously and cheaply (Origin
    /// and token checks); the request is still plain HTTP, so a rejection is sent as an HTTP response.
    func transport(_ transport: Transport, shouldAccept upgrade: UpgradeRequest) -> UpgradeDecision

    /// The handshake of an accepted upgrade completed; `id` can now receive messages.
    func transport(_ transport: Transport, didOpen id: ConnectionID, upgrade: UpgradeRequest)

    /// A complete text message arrived: reassembled from its fragments, valid UTF-8, at most
    /// `maxMessageBytes` long.
    func transport(_ transport: Transport, didReceiveMessage bytes: [UInt8], from id: ConnectionID)

    /// A WebSocket that was opened closed, for whatever reason (either side, timeout, shutdown). Messages
    /// sent to `id` from now on are dropped.
    func transport(_ transport: Transport, didClose id: ConnectionID)

    /// A message sent with `dependsOnPrevious` found a message with the same `coalescingKey` waiting on
    /// `ids` (slow readers): it was not queued, nor will later ones with that key be, until a message
    /// with that key that stands alone is sent to them. Send each one; it replaces the waiting one.
    /// The default does nothing.
    func transport(_ transport: Transport, didSkipMessageBefore coalescingKey: String, for ids: [ConnectionID])
}

extension TransportDelegate {
    package func transport(_ transport: Transport, didSkipMessageBefore coalescingKey: String, for ids: [ConnectionID]) {}

    package func transport(_ transport: Transport, immediateResponseTo request: RequestHead) -> PreparedResponse? {
        nil
    }
}
