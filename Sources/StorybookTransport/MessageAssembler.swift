/// Reassembles one WebSocket message from the pieces libwebsockets delivers to the client side
/// (`ClientLoop`; frames, and chunks of at most `rx_buffer_size` bytes within a frame), enforcing the
/// message size limit on the total. The server reads its frames itself (`WebSocketReader`).
struct MessageAssembler {
    enum Outcome: Equatable {
        /// More pieces of the message are to come.
        case partial
        /// The message is complete.
        case message([UInt8])
        /// The message grew past the limit: close with 1009.
        case tooLarge
        /// A binary message: this protocol speaks text only, close with 1003.
        case binary
    }

    let limit: Int
    private var buffer: [UInt8] = []

    init(limit: Int) {
        self.limit = limit
    }

    /// Adds the next piece; `isFinal` marks the last piece of the message.
    mutating func append(_ piece: some Collection<UInt8>, isFinal: Bool, isBinary: Bool) -> Outcome {
        guard !isBinary else {
            buffer = []
            return .binary
        }
        guard buffer.count + piece.count <= limit else {
            buffer = []
            return .tooLarge
        }
        buffer.append(contentsOf: piece)
        guard isFinal else { return .partial }
        let message = buffer
        buffer = []
        return .message(message)
    }
}
