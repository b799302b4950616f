import CLibWebSockets

/// The upgrade decision, taken in `LWS_CALLBACK_HTTP_CONFIRM_UPGRADE` while the request is still plain
/// HTTP, so that a refusal is a proper HTTP response rather than a dropped connection.
extension ServiceLoop {
    /// Returns 0 to let lws upgrade, 1 after answering the request ourselves, -1 to hang up.
    func confirmUpgrade(_ wsi: OpaquePointer, kind: UnsafeMutableRawPointer?) -> Int32 {
        guard let kind else { return 0 }
        let protocolName = String(cString: kind.assumingMemoryBound(to: CChar.self)).lowercased()
        if protocolName == "h2c" {
            declineHTTP2Upgrade(kind)
            return 0
        }
        guard protocolName == "websocket" else { return 0 }

        let connection = connections.connection(for: wsi)
        let reader = HTTPRequestReader(wsi: wsi)
        guard let (method, path) = reader.methodAndPath(), method == .get else {
            return reject(connection, .transportError(status: 400, code: "bad-request", message: "a WebSocket upgrade must be a GET"))
        }
        if reader.headBytes(extraNames: configuration.extraHeaderNames) > configuration.maxHeadBytes {
            return reject(connection, RequestBodyError.headTooLarge(limit: configuration.maxHeadBytes).response)
        }
        if let problem = reader.hostProblem {
            return reject(connection, .transportError(status: 400, code: "bad-request", message: problem))
        }
        guard path == configuration.webSocketPath else {
            return reject(connection, .transportError(status: 404, code: "not-found", message: "no WebSocket at \(path)"))
        }
        guard lifecycle == .serving else {
            return reject(connection, .transportError(status: 503, code: "unavailable", message: "the server is shutting down"))
        }
        let headers = reader.headers(extraNames: configuration.extraHeaderNames)
        let offered = (headers["sec-websocket-protocol"] ?? "")
            .split(separator: ",")
            .map { String($0).trimmingSpaces }
            .filter { !$0.isEmpty }
        guard offered.isEmpty || offered.contains(configuration.webSocketSubprotocol) else {
            return reject(connection, .transportError(
                status: 400,
                code: "bad-request",
                message: "unsupported WebSocket subprotocol; this server speaks \(configuration.webSocketSubprotocol)"
            ))
        }
        let upgrade = UpgradeRequest(
            path: path,
            queryItems: reader.queryItems(),
            headers: headers,
            subprotocol: offered.isEmpty ? nil : configuration.webSocketSubprotocol
        )
        guard let delegate = transport.delegate else {
            return reject(connection, .transportError(status: 503, code: "unavailable", message: "the server is not ready"))
        }
        switch delegate.transport(transport, shouldAccept: upgrade) {
        case .accept:
            connection.acceptedUpgrade = upgrade
            return 0
        case .reject(let status, let body):
            let headers = body.isEmpty ? [] : [("content-type", "application/json; charset=utf-8")]
            return reject(connection, HTTPResponse(status: status, headers: headers, body: body))
        }
    }

    /// Answers the upgrade request with a plain HTTP response, written at once (lws buffers what the
    /// socket does not take); lws then completes the transaction.
    private func reject(_ connection: Connection, _ response: HTTPResponse) -> Int32 {
        logger.debug("refusing WebSocket upgrade with \(response.status)", metadata: ["sb.conn": "\(connection.id)"])
        // lws closes the connection after a refused upgrade (it has not read the request's keep-alive
        // preference yet), so say so.
        var output = ResponseOutput(response, omitsBody: false, closesConnection: true)
        do {
            var writer = HTTPResponseWriter(wsi: connection.wsi, scratch: scratch)
            writer.writesOwnStatusLine = true
            try writer.writeAll(&output)
        } catch {
            return -1
        }
        return 1
    }

    /// Turns away an `Upgrade: h2c` request so that it is answered as ordinary HTTP/1.1 (RFC 9113 lets a
    /// server ignore the upgrade). lws 4.1 offers no way to say "no upgrade" from this callback: answering
    /// 0 switches protocols, nonzero answers or drops the request. But it decides by comparing the
    /// `Upgrade` value it passed us against "websocket" and "h2c" right after this callback, so blanking
    /// that value (in lws' own header table, in place, same length) makes it carry on as plain HTTP.
    private func declineHTTP2Upgrade(_ kind: UnsafeMutableRawPointer) {
        kind.storeBytes(of: UInt8(ascii: "-"), as: UInt8.self)
    }
}
