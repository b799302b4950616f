import ArgumentParser
import Foundation
import Logging
import StorybookReview
import StorybookServer
import StorybookReview

/// `storybook serve`: serves the catalog over HTTP and WebSocket until SIGINT or SIGTERM.
struct ServeCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "serve", abstract: "Serve the storybook (the default subcommand).")

    @Option(help: "The interface to listen on. The default listens on loopback only; any other needs a token or --no-auth.")
    var host = "127.0.0.1"

    @Option(help: "The TCP port; 0 takes any free port.")
    var port = 6006

    @Option(name: .customLong("public"), help: "Serve the browser UI from this directory, read on every request, instead of the UI built into the library (for working on the UI).")
    var publicDirectory: String?

    @Option(help: "The largest WebSocket message accepted, in bytes; larger ones close the connection with 1009.")
    var maxMessageBytes = 1 << 20

    @Option(help: "The access token API and WebSocket calls must carry; `auto` generates one (as is done when --host is not loopback).")
    var token: String?

    @Flag(help: "Serve a non-loopback --host without an access token (anyone who can reach it may edit).")
    var noAuth = false

    @Option(help: "Another origin allowed to change state (HTTP writes, WebSockets), e.g. http://localhost:3000 (repeatable; * allows any but null).")
    var allowOrigin: [String] = []

    @Option(help: "Another name requests may carry in Host besides the listening address, localhost, 127.0.0.1 and [::1] (repeatable).")
    var allowHost: [String] = []

    @Option(help: "Where the journal of accepted changes is kept, so a restart restores every story.")
    var stateDir = ".storybook"

    @Flag(help: "Keep live state in memory only: nothing is journaled or restored.")
    var noPersist = false

    @Option(help: "Where saved variants are written and loaded from, one JSON file per component.")
    var variantsDir = "Variants"

    @Option(help: "Golden projections (as `\(CommandContext.executableName) check` keeps them) for the review page at /#/review.")
    var snapshots: String?

    @Flag(help: "Let the review page accept a change by writing its golden into --snapshots.")
    var allowRecord = false

    @Option(help: "Add a generated catalog of N stories, to try the storybook at scale.")
    var synthetic = 0

    @Option(help: "Add one component with N generated stories (Synthetic/Generated), to try the overview page at scale.")
    var syntheticGenerated = 0

    @Option(help: "Add one story (synthetic-long-list--default) whose props hold a list of N items, about 100 bytes each, to try edits of a large value.")
    var syntheticList = 0

    @Option(help: "Log level: trace, debug, info, notice, warning, error, critical.")
    var logLevel = "info"

    func validate() throws {
        guard Logger.Level(rawValue: logLevel) != nil else {
            throw ValidationError("--log-level must be one of trace, debug, info, notice, warning, error, critical")
        }
        guard (0...65535).contains(port) else { throw ValidationError("--port must be between 0 and 65535") }
        guard (0...1_000_000).contains(synthetic) else { throw ValidationError("--synthetic must be between 0 and 1000000") }
        guard (0...10_000).contains(syntheticGenerated) else { throw ValidationError("--synthetic-generated must be between 0 and 10000") }
        guard (0...100_000).contains(syntheticList) else { throw ValidationError("--synthetic-list must be between 0 and 100000") }
        guard maxMessageBytes >= 1024 else { throw ValidationError("--max-message-bytes must be at least 1024") }
        for name in allowHost where !ServerConfiguration.isValidHostName(name) {
            throw ValidationError("--allow-host \(name) is not a host name")
        }
        if let token, token.isEmpty || token.contains(where: { !$0.isLetter && !$0.isNumber && $0 != "-" && $0 != "_" }) {
            throw ValidationError("--token may hold letters, digits, '-' and '_' only")
        }
        if allowRecord && snapshots == nil { throw ValidationError("--allow-record needs --snapshots DIR") }
        if noAuth && token != nil { throw ValidationError("--no-auth and --token contradict each other") }
        if let publicDirectory {
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: publicDirectory, isDirectory: &isDirectory), isDirectory.boolValue else {
                throw ValidationError("--public \(publicDirectory) is not a directory")
            }
        }
    }

    func run() throws {
        Storybook.reserveStopSignals()  // before any thread starts, so none takes a stop signal away
        var logger = Logger(label: CommandContext.executableName)
        logger.logLevel = Logger.Level(rawValue: logLevel) ?? .info
        var configuration = ServerConfiguration(
            host: host, port: port, publicDirectory: publicDirectory.map { URL(fileURLWithPath: $0) }, maxMessageBytes: maxMessageBytes,
            token: token == "auto" ? Self.generateToken() : token, allowedOrigins: allowOrigin,
            stateDirectory: noPersist ? nil : URL(fileURLWithPath: stateDir),
            variantsDirectory: URL(fileURLWithPath: variantsDir))
        if !configuration.isLoopback && token == nil {
            if noAuth {
                logger.warning("serving \(host) without an access token (--no-auth): anyone who can reach it may edit every story")
            } else {
                configuration.token = Self.generateToken()
            }
        }
        configuration.allowedHosts = allowHost
        configuration.snapshotsDirectory = snapshots.map { URL(fileURLWithPath: $0) }
        configuration.allowRecord = allowRecord
        var catalog = try CommandContext.catalog
        if synthetic > 0 {
            catalog = try catalog.adding(SyntheticCatalog.components(count: synthetic))
        }
        if syntheticGenerated > 0 {
            catalog = try catalog.adding([SyntheticCatalog.generated(count: syntheticGenerated)])
        }
        if syntheticList > 0 {
            catalog = try catalog.adding([SyntheticCatalog.longList(count: syntheticList)])
        }
        let server: Storybook
        do {
            server = try Storybook(catalog: catalog, configuration: configuration, logger: logger)
        } catch {
            throw CLIError("cannot open the journal: \(error)")
        }
        FileHandle.standardError.write(Data(storageNotice(configuration).utf8))
        do {
            try server.run()
        } catch {
            throw CLIError("cannot serve on \(host):\(port): \(error)")
        }
    }

    /// Where this server keeps what it writes, said once at start-up so that no directory appears
    /// in the user's working tree unexplained.
    private func storageNotice(_ configuration: ServerConfiguration) -> String {
        let name = CommandContext.executableName
        var lines: [String] = []
        if let state = configuration.stateDirectory {
            lines.append("\(name): live state is journaled in \(state.standardizedFileURL.path)/ (restored on restart; keep it out of git: add `\(stateDir)/` to .gitignore, or use --state-dir DIR or --no-persist)")
        } else {
            lines.append("\(name): live state is kept in memory only (--no-persist)")
        }
        if let variants = configuration.variantsDirectory {
            let path = variants.standardizedFileURL.path
            if FileManager.default.fileExists(atPath: path) {
                lines.append("\(name): saved variants are loaded from and written to \(path)/ (meant to be committed with your code; --variants-dir DIR to move them)")
            } else {
                lines.append("\(name): variants saved from the browser are written to \(path)/ when you save one (meant to be committed with your code; --variants-dir DIR to move them)")
            }
        }
        return lines.joined(separator: "\n") + "\n"
    }

    private static func generateToken() -> String {
        var generator = SystemRandomNumberGenerator()
        return (0..<24).map { _ in String(UInt8.random(in: 0...255, using: &generator), radix: 16) }
            .map { $0.count == 1 ? "0" + $0 : $0 }.joined()
    }
}
