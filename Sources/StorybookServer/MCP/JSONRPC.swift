import PropsCatalog

/// JSON-RPC 2.0 messages as MCP exchanges them: responses, errors and the standard error codes.
enum JSONRPC {
    /// The error codes this server answers with (JSON-RPC's own, and MCP's "resource not found").
    enum Code: Int64 {
        case parseError = -32700
        case invalidRequest = -32600
        case methodNotFound = -32601
        case invalidParams = -32602
        case internalError = -32603
        case resourceNotFound = -32002
    }

    /// A JSON-RPC error: a code, a message and optional data.
    struct Failure: Error, Equatable {
        let code: Code
        let message: String
        var data: JSONValue?

        init(_ code: Code, _ message: String, data: JSONValue? = nil) {
            self.code = code
            self.message = message
            self.data = data
        }
    }

    /// `{"jsonrpc": "2.0", "id", "result"}`.
    static func result(_ result: JSONValue, id: JSONValue) -> JSONValue {
        ["jsonrpc": "2.0", "id": id, "result": result]
    }

    /// `{"jsonrpc": "2.0", "id", "error": {"code", "message", ["data"]}}`; `id` is null when the
    /// request could not be read.
    static func error(_ failure: Failure, id: JSONValue) -> JSONValue {
        var error: [String: JSONValue] = ["code": .integer(failure.code.rawValue), "message": .string(failure.message)]
        if let data = failure.data { error["data"] = data }
        return ["jsonrpc": "2.0", "id": id, "error": .object(error)]
    }
}
