import StorybookTransport
/// Where the hub sends WebSocket messages: the transport when serving, a recorder in tests.
protocol MessageSink: Sendable {
    /// Sends one text message to each connection. A queued, not yet written message with the
    /// same `coalescingKey` is replaced, so slow clients get the latest state, not a backlog.
    func send(_ text: [UInt8], to connections: [ConnectionID], coalescingKey: String?)
}
