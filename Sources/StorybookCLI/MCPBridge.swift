import Foundation
#if canImport(FoundationNetworking)
import FoundationNetworking
#endif
import PropsCatalog
import StorybookReview
import Synchronization

/// Forwards JSON-RPC messages one at a time to a server's `/mcp` over HTTP, keeping the
/// `Mcp-Session-Id` and protocol version the server agreed on, and turns transport failures into
/// JSON-RPC errors for the request that met them.
struct MCPBridge {
    static let sessionHeader = "Mcp-Session-Id"
    static let protocolHeader = "MCP-Protocol-Version"

    let endpoint: URL
    let token: String?
    private var sessionID: String?
    private var protocolVersion: String?

    init(endpoint: URL, token: String?) {
        self.endpoint = endpoint
        self.token = token
    }

    /// Posts one message; returns the line to write back, nil when there is none (a notification).
    mutating func forward(_ line: String) -> String? {
        let message = try? JSONParser.parse(line)
        let id = message?["id"]
        let isInitialize = message?["method"]?.stringValue == "initialize"
        var request = URLRequest(url: endpoint)
        request.httpMethod = "POST"
        request.httpBody = Data(line.utf8)
        request.setValue("application/json", forHTTPHeaderField: "Content-Type")
        request.setValue("application/json, text/event-stream", forHTTPHeaderField: "Accept")
        if let sessionID, !isInitialize { request.setValue(sessionID, forHTTPHeaderField: Self.sessionHeader) }
        if let protocolVersion, !isInitialize { request.setValue(protocolVersion, forHTTPHeaderField: Self.protocolHeader) }
        if let token { request.setValue("Bearer \(token)", forHTTPHeaderField: "Authorization") }

        let (data, response, failure) = Self.send(request)
        guard let response else {
            Self.log("cannot reach \(endpoint.absoluteString): \(failure.map { "\($0.localizedDescription)" } ?? "no answer")")
            return Self.error(id: id, "cannot reach the server at \(endpoint.absoluteString): is `\(CommandContext.executableName) serve` running?")
        }
        if isInitialize, let session = response.value(forHTTPHeaderField: Self.sessionHeader) {
            sessionID = session
        }
        let body = data.map { String(decoding: $0, as: UTF8.self) } ?? ""
        guard !body.isEmpty else { return nil }
        guard let answer = try? JSONParser.parse(body) else {
            return Self.error(id: id, "the server answered \(response.statusCode) with something that is not JSON")
        }
        if answer["jsonrpc"] != nil {
            if isInitialize, let version = answer["result"]?["protocolVersion"]?.stringValue { protocolVersion = version }
            return answer.serialized()
        }
        // An HTTP error of the storybook (`{"error": {"code", "message"}}`): 401, 403, 415...
        let reason = answer["error"]?["message"]?.stringValue ?? body
        Self.log("the server refused the request (\(response.statusCode)): \(reason)")
        return Self.error(id: id, "the server refused the request (\(response.statusCode)): \(reason)")
    }

    /// A JSON-RPC error for the request `id`; nil for a notification, which gets no answer.
    private static func error(id: JSONValue?, _ message: String) -> String? {
        guard let id, id != .null else { return nil }
        let error: JSONValue = ["jsonrpc": "2.0", "id": id, "error": ["code": -32603, "message": .string(message)]]
        return error.serialized()
    }

    private static func log(_ message: String) {
        FileHandle.standardError.write(Data("\(CommandContext.executableName) mcp: \(message)\n".utf8))
    }

    /// One request, waited for.
    private static func send(_ request: URLRequest) -> (Data?, HTTPURLResponse?, (any Error)?) {
        let result = Mutex<(Data?, HTTPURLResponse?, (any Error)?)>((nil, nil, nil))
        let done = DispatchSemaphore(value: 0)
        URLSession.shared.dataTask(with: request) { data, response, error in
            result.withLock { $0 = (data, response as? HTTPURLResponse, error) }
            done.signal()
        }.resume()
        done.wait()
        return result.withLock { $0 }
    }
}
