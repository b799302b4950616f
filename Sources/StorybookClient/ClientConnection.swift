import Foundation

/// What a connection tells its ``StorybookClient``.
enum ConnectionEvent: Sendable {
    case opened
    case message([UInt8])
    case closed(reason: String)
}

/// The WebSocket under a ``StorybookClient``: libwebsockets on Linux, URLSession on Apple platforms.
/// Every method returns at once; events arrive through the handler given at creation, for the current
/// connection only.
protocol ClientConnection: Sendable {
    func start()
    /// Opens a connection to `url`, replacing the current one.
    func connect(to url: URL)
    func send(_ text: [UInt8])
    func stop()
}
