import StorybookTransport
/// Where the hub sends WebSocket messages: the transport when serving, a recorder in tests.
protocol MessageSink: Sendable {
    /// Sends one text message to each connection. A queued, not yet written message with the
    /// same `coalescingKey` is replaced, so slow clients get the latest state, not a backlog.
    func send(_ text: [UInt8], to connections: [ConnectionID], coalescingKey: String?)

    /// The same for a message that builds on the one sent before it with its key (a state delta):
    /// when one of its key is still waiting, the transport does not queue it, nor the next of that key,
    /// and reports it so that a whole one follows.
    func send(_ text: [UInt8], to connections: [ConnectionID], coalescingKey: String, dependsOnPrevious: Bool)
}

extension MessageSink {
    func send(_ text: [UInt8], to connections: [ConnectionID], coalescingKey: String, dependsOnPrevious: Bool) {
        send(text, to: connections, coalescingKey: coalescingKey)
    }
}
