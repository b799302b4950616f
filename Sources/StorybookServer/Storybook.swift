import Dispatch
import Foundation
public import Logging
public import PropsCatalog
import Synchronization
import StorybookTransport

/// A storybook server for one catalog: HTTP and WebSocket over libwebsockets.
///
/// ```swift
/// let server = Storybook(catalog: try MyCatalog.make(), configuration: ServerConfiguration(port: 0))
/// let port = try server.start()
/// // ...
/// server.stop()
/// ```
public final class Storybook: Sendable {
    /// The components and stories served.
    public let catalog: Catalog
    /// How the server was started.
    public let configuration: ServerConfiguration
    private let logger: Logger
    private let transport: Transport
    private let app: StorybookApp

    /// A server for `catalog`. Throws when the journal in `configuration.stateDirectory` cannot be opened.
    public init(catalog: Catalog, configuration: ServerConfiguration = ServerConfiguration(), logger: Logger = Logger(label: "storybook")) throws {
        self.catalog = catalog
        self.configuration = configuration
        self.logger = logger
        let sink = TransportSink()
        let app = try StorybookApp(catalog: catalog, configuration: configuration, sink: sink, logger: logger)
        var transportConfiguration = TransportConfiguration(
            host: configuration.host, port: configuration.port, maxBodyBytes: configuration.maxBodyBytes,
            maxMessageBytes: configuration.maxMessageBytes, pingInterval: .seconds(configuration.pingInterval),
            hangupTimeout: .seconds(configuration.pingInterval * 2), slowClientTimeout: .seconds(configuration.slowClientTimeout))
        transportConfiguration.extraHeaderNames = [MCPEndpoint.sessionHeader, MCPEndpoint.protocolHeader]
        let transport = Transport(configuration: transportConfiguration, delegate: app, logger: logger)
        sink.transport.withLock { $0 = transport }
        self.app = app
        self.transport = transport
    }

    /// Starts listening and returns the bound port (useful with port 0).
    public func start() throws -> Int {
        let port = try transport.start()
        app.listening(on: port)
        app.warmUp()
        return port
    }

    /// Closes every WebSocket with 1001 (going away) and stops the event loop.
    public func stop() {
        transport.shutdown()
        app.close()
    }

    /// Starts, prints `Listening on http://HOST:PORT/` and serves until SIGINT or SIGTERM.
    ///
    /// SIGINT and SIGTERM are blocked before any thread starts (threads inherit the mask) and taken
    /// with `sigwait` here, so a signal sent the moment the line is printed is never lost.
    public func run() throws {
        var stopSignals = Self.blockStopSignals()
        let port = try start()
        var url = "http://\(Self.urlHost(configuration.host)):\(port)/"
        if let token = configuration.token { url += "?token=\(token)" }
        FileHandle.standardOutput.write(Data("Listening on \(url)\n".utf8))
        var received: Int32 = 0
        while sigwait(&stopSignals, &received) != 0 {}
        logger.info("stopping on signal \(received)")
        stop()
    }

    /// Blocks SIGINT and SIGTERM in the calling thread (and the threads it starts from now on),
    /// so that `sigwait` takes them; returns their set.
    static func blockStopSignals() -> sigset_t {
        var stopSignals = sigset_t()
        sigemptyset(&stopSignals)
        sigaddset(&stopSignals, SIGINT)
        sigaddset(&stopSignals, SIGTERM)
        pthread_sigmask(SIG_BLOCK, &stopSignals, nil)
        return stopSignals
    }

    /// Blocks SIGINT and SIGTERM before any thread starts, so that none takes a stop signal away
    /// from ``run()``: for a command line that builds its server after starting other work.
    package static func reserveStopSignals() {
        _ = blockStopSignals()
    }

    private static func urlHost(_ host: String) -> String {
        host.contains(":") ? "[\(host)]" : host
    }
}

/// Forwards the hub's messages to the transport, which is created after the hub.
private final class TransportSink: MessageSink {
    let transport = Mutex<Transport?>(nil)

    func send(_ text: [UInt8], to connections: [ConnectionID], coalescingKey: String?) {
        transport.withLock { $0 }?.send(text, to: connections, coalescingKey: coalescingKey)
    }

    func send(_ text: [UInt8], to connections: [ConnectionID], coalescingKey: String, dependsOnPrevious: Bool) {
        transport.withLock { $0 }?.send(text, to: connections, coalescingKey: coalescingKey, dependsOnPrevious: dependsOnPrevious)
    }
}
