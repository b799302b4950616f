public import Foundation

/// How a storybook server listens and what it allows. Every field has the default of `storybook serve`.
public struct ServerConfiguration: Sendable {
    /// The interface to bind. `127.0.0.1` (the default) listens on loopback only.
    public var host: String = "127.0.0.1"
    /// The TCP port; 0 takes any free port.
    public var port: Int = 6006
    /// A directory to serve the browser UI from, read on every request (`--public`, for working on
    /// the UI). Nil serves the UI embedded in the library.
    public var publicDirectory: URL?
    /// The largest WebSocket message accepted; a larger one closes the connection with 1009.
    public var maxMessageBytes: Int = 1 << 20
    /// The largest HTTP request body accepted; a larger one is answered 413.
    public var maxBodyBytes: Int = 1 << 20
    /// The deepest JSON nesting accepted in a message or body.
    public var maxJSONDepth: Int = 64
    /// The access token API and WebSocket calls must carry; nil for none.
    public var token: String?
    /// Origins besides the server's own allowed to open WebSockets (`*` allows any).
    public var allowedOrigins: [String] = []
    /// Host names besides the listening address, `localhost`, `127.0.0.1` and `[::1]` that requests may
    /// carry in `Host` (`--allow-host`); any other is refused 421 against DNS rebinding.
    public var allowedHosts: [String] = []
    /// Where the journal of accepted changes lives (`.storybook/` for `serve`); nil keeps
    /// everything in memory only.
    public var stateDirectory: URL?
    /// Where saved variants are kept (`Variants/` for `serve`); nil turns saving off.
    public var variantsDirectory: URL?
    /// Golden projections the review page compares with (`--snapshots`); nil turns review off.
    public var snapshotsDirectory: URL?
    /// Whether the review page may accept a change by writing its golden (`--allow-record`).
    public var allowRecord = false
    /// Seconds between keep-alive pings on idle WebSockets.
    public var pingInterval: Int = 30
    /// Seconds after which a subscriber that stopped reading is dropped.
    public var slowClientTimeout: Int = 10

    /// A configuration; what is not given keeps its default (loopback, port 6006, no token).
    public init(
        host: String = "127.0.0.1", port: Int = 6006, publicDirectory: URL? = nil,
        maxMessageBytes: Int = 1 << 20, token: String? = nil, allowedOrigins: [String] = [], stateDirectory: URL? = nil,
        variantsDirectory: URL? = nil
    ) {
        self.variantsDirectory = variantsDirectory
        self.stateDirectory = stateDirectory
        self.host = host
        self.port = port
        self.publicDirectory = publicDirectory
        self.maxMessageBytes = maxMessageBytes
        self.token = token
        self.allowedOrigins = allowedOrigins
    }

    /// Whether `name` can be an `allowedHosts` entry: a host name or address, with an optional port.
    package static func isValidHostName(_ name: String) -> Bool {
        AccessPolicy.splitAuthority(name) != nil
    }

    /// Whether `host` names the loopback interface only.
    public var isLoopback: Bool {
        ["127.0.0.1", "localhost", "::1", "lo"].contains(host) || host.hasPrefix("127.")
    }
}
