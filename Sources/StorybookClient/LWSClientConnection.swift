#if !canImport(Darwin)
import Foundation
import Logging
import StorybookTransport

/// The Linux connection: the transport's libwebsockets client, on its own loop thread.
final class LWSClientConnection: ClientConnection {
    private let client: WebSocketClient
    private let events: @Sendable (ConnectionEvent) -> Void

    init(events: @escaping @Sendable (ConnectionEvent) -> Void) {
        self.events = events
        let box = ClientBox()
        client = WebSocketClient { event in
            // Only the current attempt's events count (the attempt number moves on before a new one is posted).
            switch event {
            case .opened(let attempt) where box.isCurrent(attempt): events(.opened)
            case .message(let attempt, let bytes) where box.isCurrent(attempt): events(.message(bytes))
            case .closed(let attempt, let reason) where box.isCurrent(attempt): events(.closed(reason: reason))
            default: break
            }
        }
        box.client = client
    }

    func start() {
        do {
            try client.start()
        } catch {
            client.logger.error("cannot start the WebSocket client: \(error)")
        }
    }

    func connect(to url: URL) {
        // libwebsockets' client here speaks plain WebSocket only: a wss:// URL must not quietly
        // become a clear-text connection to port 80.
        guard let reason = Self.unsupportedScheme(of: url) else { return open(url) }
        events(.closed(reason: reason))
    }

    /// Why `url` cannot be opened by this client, or nil when it can (`ws://`, `http://`).
    static func unsupportedScheme(of url: URL) -> String? {
        switch url.scheme?.lowercased() {
        case "ws", "http": nil
        case "wss", "https": "\(url.absoluteString): TLS (wss://) is not available in the Linux client; use ws:// (the server on loopback, or behind a TLS-terminating proxy)"
        default: "\(url.absoluteString): not a WebSocket URL (ws://HOST:PORT/ws)"
        }
    }

    private func open(_ url: URL) {
        var path = url.path.isEmpty ? "/" : url.path
        if let query = url.query { path += "?" + query }
        let target = WebSocketClientTarget(host: url.host ?? "127.0.0.1", port: url.port ?? 80, path: path, subprotocol: "storybook.v1")
        client.connect(to: target)
    }

    func send(_ text: [UInt8]) {
        client.send(text)
    }

    func stop() {
        client.shutdown()
    }
}

/// Lets the loop's event handler ask the client it belongs to, created after the handler.
private final class ClientBox: @unchecked Sendable {
    // @unchecked: `client` is written once, right after the client is created and before it is
    // started (no event can arrive earlier), and only read afterwards.
    weak var client: WebSocketClient?
    func isCurrent(_ attempt: UInt64) -> Bool { client?.isCurrent(attempt) ?? false }
}

/// The connection of this platform.
func makeConnection(configuration: StorybookClient.Configuration, events: @escaping @Sendable (ConnectionEvent) -> Void) -> any ClientConnection {
    LWSClientConnection(events: events)
}
#endif
