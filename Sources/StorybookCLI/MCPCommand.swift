import ArgumentParser
import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PropsCatalog

/// `storybook mcp --url http://127.0.0.1:6006`: an MCP stdio server for clients that only spawn
/// processes. Every JSON-RPC line read on standard input is posted to the running server's `/mcp`
/// and its answer written as one line on standard output, so the agent shares the sessions (and the
/// presence list) of the browser. Diagnostics go to standard error only.
struct MCPCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "mcp", abstract: "Bridge an MCP client on stdin/stdout to a running storybook server's /mcp.")

    @Option(help: "The running server, e.g. http://127.0.0.1:6006 (a ?token=... in it is sent as the access token).")
    var url = "http://127.0.0.1:6006"

    @Option(help: "The server's access token, when it needs one.")
    var token: String?

    func validate() throws {
        guard let components = URLComponents(string: url), ["http", "https"].contains(components.scheme ?? ""), components.host != nil else {
            throw ValidationError("--url must be an http:// URL of a running storybook server, e.g. http://127.0.0.1:6006")
        }
    }

    func run() throws {
        var components = URLComponents(string: url)!
        let queryToken = components.queryItems?.first { $0.name == "token" }?.value
        components.query = nil
        components.path = components.path.hasSuffix("/mcp") ? components.path
            : (components.path.hasSuffix("/") ? String(components.path.dropLast()) : components.path) + "/mcp"
        var bridge = MCPBridge(endpoint: components.url!, token: token ?? queryToken)
        while let line = readLine(strippingNewline: true) {
            guard !line.trimmingCharacters(in: .whitespaces).isEmpty else { continue }
            if let answer = bridge.forward(line) {
                FileHandle.standardOutput.write(Data((answer + "\n").utf8))
            }
        }
    }
}
