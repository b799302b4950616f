import CLibWebSockets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The upgrade decision, taken in `LWS_CALLBACK_HTTP_CONFIRM_UPGRADE` while the request is still plain
/// HTTP, so that a refusal is a proper HTTP response rather than a dropped connection; and the takeover
/// of an accepted upgrade's socket, which the transport then speaks WebSocket on itself.
extension ServiceLoop {
    /// Returns 0 to let lws go on (a request that is not a WebSocket upgrade), 1 after answering the
    /// request ourselves, -1 to hang up lws' HTTP connection (also once its socket is taken over).
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
        if let problem = checkHead(reader).problem {
            return reject(connection, problem.response)
        }
        guard path == configuration.webSocketPath else {
            return reject(connection, .transportError(status: 404, code: "not-found", message: "no WebSocket at \(path)"))
        }
        guard lifecycle == .serving else {
            return reject(connection, .transportError(status: 503, code: "unavailable", message: "the server is shutting down"))
        }
        let headers = reader.headers(extraNames: extraHeaderNames)
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
        let handshake: WebSocketHandshake
        do {
            handshake = try WebSocketHandshake(headers: headers, subprotocol: offered.isEmpty ? nil : configuration.webSocketSubprotocol)
        } catch {
            switch error {
            case .unsupportedVersion:
                var response = HTTPResponse.transportError(status: 426, code: "upgrade-required", message: "this server speaks WebSocket version 13")
                response.headers.append(("sec-websocket-version", "13"))
                return reject(connection, response)
            case .malformed(let message):
                return reject(connection, .transportError(status: 400, code: "bad-request", message: message))
            }
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
            return takeOver(connection, WebSocketTakeover(upgrade: upgrade, handshake: handshake))
        case .reject(let status, let body):
            let headers = body.isEmpty ? [] : [("content-type", "application/json; charset=utf-8")]
            return reject(connection, HTTPResponse(status: status, headers: headers, body: body))
        }
    }

    /// Hands the socket of an accepted upgrade from lws' HTTP connection to a raw connection of our
    /// protocol, on which the transport answers 101 and reads and writes frames itself (lws 4.1's own
    /// WebSocket parser cannot tell a masked frame from an unmasked one; see WebSocketReader).
    ///
    /// The raw connection adopts a duplicate of the socket. lws' HTTP connection is then hung up, which
    /// would shut the socket down (`shutdown` acts on the connection, not on one descriptor), so its
    /// descriptor is first pointed at /dev/null: lws shuts down and closes that instead.
    private func takeOver(_ connection: Connection, _ takeover: WebSocketTakeover) -> Int32 {
        let socket = lws_get_socket_fd(connection.wsi)
        let standIn = open("/dev/null", O_RDWR | O_CLOEXEC)
        guard let vhost, socket >= 0, standIn >= 0 else {
            if standIn >= 0 { close(standIn) }
            return reject(connection, .transportError(status: 503, code: "unavailable", message: "cannot open the WebSocket (out of descriptors)"))
        }
        defer { close(standIn) }
        let copy = fcntl(socket, F_DUPFD_CLOEXEC, 0)
        guard copy >= 0 else {
            return reject(connection, .transportError(status: 503, code: "unavailable", message: "cannot open the WebSocket (out of descriptors)"))
        }
        var descriptor = lws_sock_file_fd_type()
        descriptor.sockfd = copy
        pendingTakeover = takeover
        // lws closes `copy` itself if the adoption fails.
        let adopted = lws_adopt_descriptor_vhost(vhost, LWS_ADOPT_SOCKET, descriptor, resources.protocols[0].name, nil)
        pendingTakeover = nil
        guard adopted != nil else {
            return reject(connection, .transportError(status: 503, code: "unavailable", message: "cannot open the WebSocket"))
        }
        guard dup2(standIn, socket) >= 0 else {
            // The hang-up below would shut the shared socket down: close the new connection too.
            lws_set_timeout(adopted, PENDING_TIMEOUT_USER_OK, LWS_TO_KILL_ASYNC)
            return -1
        }
        return -1
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
