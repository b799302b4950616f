/// Work handed from any thread to the loop thread through the transport's mailbox.
enum LoopCommand: Sendable {
    /// Answer the HTTP request waiting on a connection.
    case respond(ConnectionID, HTTPResponse)
    /// Queue one text message for each connection (one shared buffer for all of them); see
    /// ``Transport/send(_:to:coalescingKey:dependsOnPrevious:)``.
    case send([UInt8], to: [ConnectionID], coalescingKey: String?, dependsOnPrevious: Bool)
    /// Close a WebSocket once what was sent before is written.
    case close(ConnectionID, code: UInt16, reason: String)
    /// Close every WebSocket with 1001 and stop the loop.
    case shutdown
}

extension LoopCommand {
    /// Whether this is ``shutdown``, which a stopped loop drops without a word.
    var isShutdown: Bool {
        if case .shutdown = self { true } else { false }
    }
}
