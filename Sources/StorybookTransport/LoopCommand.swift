/// Work handed from any thread to the loop thread through the transport's mailbox.
enum LoopCommand: Sendable {
    /// Answer the HTTP request waiting on a connection.
    case respond(ConnectionID, HTTPResponse)
    /// Queue one text message for each connection (one shared buffer for all of them).
    case send([UInt8], to: [ConnectionID], coalescingKey: String?)
    /// Close a WebSocket once what was sent before is written.
    case close(ConnectionID, code: UInt16, reason: String)
    /// Close every WebSocket with 1001 and stop the loop.
    case shutdown
}
