import Dispatch
import Foundation
import PropsCatalog
import StorybookTransport

/// `POST /mcp`: the Model Context Protocol over Streamable HTTP, answered with plain JSON (no SSE
/// stream is offered, so `GET` is 405 as the specification allows). One JSON-RPC message per
/// request; `initialize` opens a session whose id comes back in `Mcp-Session-Id` and must be sent
/// with every later request (400 without it, 404 once it is unknown). `DELETE` ends a session (its
/// agent stays in presence lists until its linger time is over).
///
/// Runs on the app's serial queue like every route: tools edit through the same hub, journal and
/// broadcast as the browser. Access (token, Origin) is checked by the router before it gets here.
final class MCPEndpoint {
    /// Protocol revisions this server speaks; `initialize` agrees on the client's if listed, else the first.
    static let protocolVersions = ["2025-06-18", "2025-11-25", "2025-03-26"]
    /// The most sessions kept; past it the longest unused is dropped (its client gets 404 and re-initializes).
    static let maxSessions = 256
    static let sessionHeader = "Mcp-Session-Id"
    static let protocolHeader = "MCP-Protocol-Version"

    private let tools: MCPTools
    private let resources: MCPResources
    private let presence: PresenceBoard
    private let maxJSONDepth: Int
    private var sessions: [String: MCPClient] = [:]

    init(tools: MCPTools, resources: MCPResources, presence: PresenceBoard, maxJSONDepth: Int) {
        self.tools = tools
        self.resources = resources
        self.presence = presence
        self.maxJSONDepth = maxJSONDepth
    }

    /// Answers one HTTP request to `/mcp`.
    func respond(to request: HTTPRequest) -> HTTPResponse {
        switch request.method.rawValue {
        case "POST":
            return post(request)
        case "DELETE":
            // The agent stays listed on the stories it used for the usual while: it was just there.
            guard let id = request.headers["mcp-session-id"], sessions.removeValue(forKey: id) != nil else {
                return .error(APIError(.notFound, "no MCP session with this Mcp-Session-Id"))
            }
            return HTTPResponse(status: 204, headers: [], body: [])
        default:
            return .error(APIError(.methodNotAllowed, "\(request.method.rawValue) is not allowed on /mcp: this server answers POST with JSON and offers no SSE stream"),
                          headers: [("Allow", "POST, DELETE")])
        }
    }

    private func post(_ request: HTTPRequest) -> HTTPResponse {
        let contentType = request.headers["content-type"]?.split(separator: ";").first?.trimmingCharacters(in: .whitespaces).lowercased()
        guard contentType == "application/json" else {
            return .error(APIError(.unsupportedMediaType, "an MCP request body is application/json"))
        }
        if let accept = request.headers["accept"]?.lowercased(),
           !accept.contains("application/json"), !accept.contains("*/*"), !accept.contains("application/*") {
            return .error(APIError(.notAcceptable, "this server answers MCP requests with application/json: accept it"))
        }
        let message: JSONValue
        do {
            message = try JSONParser.parse(request.body, maxDepth: maxJSONDepth)
        } catch {
            return rpc(JSONRPC.error(JSONRPC.Failure(.parseError, "the body is not JSON: \(error)"), id: .null), status: 400)
        }
        guard case .object(let members) = message, members["jsonrpc"] == "2.0" else {
            let reason = message.arrayValue != nil ? "JSON-RPC batches are not supported: send one message per request"
                : "a JSON-RPC 2.0 message is an object with \"jsonrpc\": \"2.0\""
            return rpc(JSONRPC.error(JSONRPC.Failure(.invalidRequest, reason), id: .null), status: 400)
        }
        if let failure = Self.envelopeFailure(members) {
            return rpc(JSONRPC.error(failure, id: .null), status: 400)
        }
        guard case .string(let method)? = members["method"] else {
            return accepted()  // a response or error from the client: nothing asked of us
        }
        guard let id = members["id"], id != .null else {
            return notification(method, request: request)
        }
        if method == "initialize" {
            return initialize(id: id, params: members["params"])
        }
        let client: MCPClient
        switch session(for: request) {
        case .failure(let response): return response
        case .found(let value): client = value
        }
        let params = members["params"] ?? .object([:])  // an object: envelopeFailure checked
        do throws(JSONRPC.Failure) {
            return rpc(JSONRPC.result(try call(method, params: params, client: client), id: id), client: client)
        } catch {
            return rpc(JSONRPC.error(error, id: id), client: client)
        }
    }

    /// Why a JSON-RPC 2.0 object is not a request, a notification or a response, or nil when it is one:
    /// `method` a string, `id` a string, a number or null, `params` an object (MCP names its
    /// parameters); a message without `method` is a response, with an `id` and either a `result` or
    /// an `error` object.
    static func envelopeFailure(_ members: [String: JSONValue]) -> JSONRPC.Failure? {
        switch members["id"] {
        case nil, .null?, .string?, .integer?, .double?, .exactNumber?: break
        default: return JSONRPC.Failure(.invalidRequest, "id must be a string, a number or null")
        }
        switch members["method"] {
        case .string?:
            if let params = members["params"], params.objectValue == nil {
                return JSONRPC.Failure(.invalidRequest, "params must be an object")
            }
            return nil
        case nil:
            guard members["id"] != nil, (members["result"] != nil) != (members["error"] != nil),
                  members["error"].map({ $0.objectValue != nil }) ?? true else {
                return JSONRPC.Failure(.invalidRequest, "a JSON-RPC message has a string method (a request or notification), or an id and either a result or an error object (a response)")
            }
            return nil
        default:
            return JSONRPC.Failure(.invalidRequest, "method must be a string")
        }
    }

    private func call(_ method: String, params: JSONValue, client: MCPClient) throws(JSONRPC.Failure) -> JSONValue {
        switch method {
        case "ping":
            return .object([:])
        case "tools/list":
            return ["tools": .array(tools.definitions.map(\.json))]
        case "tools/call":
            guard case .string(let name)? = params["name"] else { throw JSONRPC.Failure(.invalidParams, "tools/call needs a tool name") }
            let arguments = params["arguments"] ?? .object([:])
            guard case .object = arguments else { throw JSONRPC.Failure(.invalidParams, "arguments must be an object") }
            return try tools.call(name, arguments: arguments, client: client)
        case "resources/list":
            return try resources.list(cursor: params["cursor"]?.stringValue)
        case "resources/templates/list":
            return ["resourceTemplates": .array(MCPResources.templates)]
        case "resources/read":
            guard case .string(let uri)? = params["uri"] else { throw JSONRPC.Failure(.invalidParams, "resources/read needs a uri") }
            return try resources.read(uri, client: client)
        case "prompts/list":
            return ["prompts": []]
        default:
            throw JSONRPC.Failure(.methodNotFound, "unknown method '\(method)'")
        }
    }

    private func initialize(id: JSONValue, params: JSONValue?) -> HTTPResponse {
        let requested = params?["protocolVersion"]?.stringValue
        let version = requested.flatMap { Self.protocolVersions.contains($0) ? $0 : nil } ?? Self.protocolVersions[0]
        let rawName = params?["clientInfo"]?["name"]?.stringValue?.trimmingCharacters(in: .whitespacesAndNewlines) ?? ""
        let name = rawName.isEmpty ? "mcp" : String(rawName.prefix(60))
        let sessionID = UUID().uuidString.lowercased()
        let client = MCPClient(sessionID: sessionID, name: name, protocolVersion: version, lastUsed: DispatchTime.now().uptimeNanoseconds)
        if sessions.count >= Self.maxSessions, let oldest = sessions.values.min(by: { $0.lastUsed < $1.lastUsed }) {
            sessions[oldest.sessionID] = nil
            presence.remove(agent: oldest.viewerID)
        }
        sessions[sessionID] = client
        let result: JSONValue = [
            "protocolVersion": .string(version),
            "capabilities": ["tools": ["listChanged": false], "resources": ["listChanged": false, "subscribe": false]],
            "serverInfo": ["name": "storybook", "title": "Storybook for Codable Props", "version": "1"],
            "instructions": .string(MCPTools.instructions),
        ]
        return rpc(JSONRPC.result(result, id: id), client: client)
    }

    private func notification(_ method: String, request: HTTPRequest) -> HTTPResponse {
        if method == "notifications/initialized", case .failure(let response) = session(for: request) {
            return response
        }
        return accepted()
    }

    /// The session a request names, or the answer the specification asks for when it names none
    /// (400) or an unknown one (404); also checks `MCP-Protocol-Version`.
    private func session(for request: HTTPRequest) -> Lookup {
        guard let id = request.headers["mcp-session-id"] else {
            return .failure(rpc(JSONRPC.error(JSONRPC.Failure(.invalidRequest, "missing Mcp-Session-Id: call initialize first"), id: .null), status: 400))
        }
        guard var client = sessions[id] else {
            return .failure(rpc(JSONRPC.error(JSONRPC.Failure(.invalidRequest, "unknown or ended MCP session: initialize again"), id: .null), status: 404))
        }
        if let version = request.headers["mcp-protocol-version"], !Self.protocolVersions.contains(version) {
            let supported = Self.protocolVersions.joined(separator: ", ")
            return .failure(rpc(JSONRPC.error(JSONRPC.Failure(.invalidRequest, "unsupported MCP-Protocol-Version \(version) (supported: \(supported))"), id: .null), status: 400))
        }
        client.lastUsed = DispatchTime.now().uptimeNanoseconds
        sessions[id] = client
        return .found(client)
    }

    /// A session found, or the answer that refuses the request.
    private enum Lookup {
        case found(MCPClient)
        case failure(HTTPResponse)
    }

    private func rpc(_ message: JSONValue, status: Int = 200, client: MCPClient? = nil) -> HTTPResponse {
        let headers = client.map { [(Self.sessionHeader, $0.sessionID)] } ?? []
        return .json(message, status: status, headers: headers)
    }

    private func accepted() -> HTTPResponse {
        HTTPResponse(status: 202, headers: [], body: [])
    }
}
