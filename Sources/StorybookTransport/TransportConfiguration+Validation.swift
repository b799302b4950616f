extension TransportConfiguration {
    /// lws 4.1 keeps its header room in 16 bits and gets twice ``maxHeadBytes``.
    static let maxHeadBytesLimit = 32767

    /// The header room libwebsockets gets: twice the head this server answers, so that a head somewhat
    /// over the limit still arrives whole and can be answered 431.
    var lwsHeaderRoom: UInt16 { UInt16(2 * maxHeadBytes + 1) }

    /// Checks the values `start()` relies on.
    func validate() throws(TransportError) {
        guard (0...65535).contains(port) else { throw .invalidConfiguration("port \(port) is not in 0...65535") }
        guard maxBodyBytes >= 0 else { throw .invalidConfiguration("maxBodyBytes must not be negative") }
        guard (1024...Self.maxHeadBytesLimit).contains(maxHeadBytes) else {
            throw .invalidConfiguration("maxHeadBytes must be in 1024...\(Self.maxHeadBytesLimit)")
        }
        guard maxMessageBytes > 0 else { throw .invalidConfiguration("maxMessageBytes must be positive") }
        guard maxQueuedMessages > 0 else { throw .invalidConfiguration("maxQueuedMessages must be positive") }
        guard pingInterval >= .seconds(1) else { throw .invalidConfiguration("pingInterval must be at least 1 s") }
        guard hangupTimeout > pingInterval else {
            throw .invalidConfiguration("hangupTimeout must be longer than pingInterval")
        }
        guard responseTimeout >= .seconds(1) else { throw .invalidConfiguration("responseTimeout must be at least 1 s") }
        guard slowClientTimeout > .zero else { throw .invalidConfiguration("slowClientTimeout must be positive") }
        guard webSocketPath.hasPrefix("/") else { throw .invalidConfiguration("webSocketPath must start with /") }
        guard !webSocketSubprotocol.isEmpty else {
            throw .invalidConfiguration("webSocketSubprotocol must not be empty")
        }
    }
}
