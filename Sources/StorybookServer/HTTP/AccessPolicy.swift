import Foundation
import PropsCatalog
import StorybookTransport

/// Who may call the storybook, in one place for every way in: the HTTP routes (``HTTPRouter``), the
/// loop thread's immediate answers (``ImmediateResponder``), the WebSocket upgrade and any route added
/// later (`/mcp`) ask ``refusal(_:)`` before doing anything.
///
/// The rules, in order:
/// 1. `Host` must name this server: the listening address, `localhost`, `127.0.0.1`, `[::1]` or an
///    `--allow-host` name (any port). Anything else is DNS rebinding: 421 `misdirected`.
/// 2. `/api`, `/render`, `/ws` and `/mcp` need the access token when the server has one: 401.
/// 3. A request that may change state (any method but GET, HEAD and OPTIONS, and every WebSocket) is
///    refused 403 `forbidden` when it carries an `Origin` that is not the server's own (an allowed
///    host on the listening port) nor an `--allow-origin`. `Origin: null` is foreign. No `Origin`
///    (a script) is accepted.
/// 4. A request body must be `application/json` (or `application/json-patch+json`): 415.
struct AccessPolicy: Sendable {
    static let cookieName = "storybook-token"
    /// The names every server answers to, besides its listening address and `--allow-host`s.
    static let loopbackNames: Set<String> = ["localhost", "127.0.0.1", "[::1]"]

    let token: String?
    let allowedOrigins: Set<String>
    /// Lowercased host names, IPv6 literals in brackets.
    let allowedHosts: Set<String>
    /// The same names as bytes, which a plain `Host` (``plainAuthorityParts(_:)``) is compared with
    /// without making a string of it.
    private let allowedHostBytes: [[UInt8]]
    /// The port the server listens on, known once it started (0 until then: no origin is its own).
    let port: ListeningPort

    init(token: String?, allowedOrigins: [String], allowedHosts: [String] = [], listeningHost: String = "127.0.0.1",
         port: ListeningPort = ListeningPort()) {
        self.token = token
        self.allowedOrigins = Set(allowedOrigins)
        var hosts = Self.loopbackNames
        for name in allowedHosts + [listeningHost] {
            hosts.insert(Self.normalizedHostName(name.contains(":") && !name.hasPrefix("[") ? "[\(name)]" : name))
        }
        self.allowedHosts = hosts
        allowedHostBytes = hosts.sorted().map { Array($0.utf8) }
        self.port = port
    }

    /// What the rules look at in a request, however it arrived.
    struct Request {
        var method: HTTPMethod
        /// Whether the server has a token and the path is one it guards (rule 2; ``guardsPath(_:)``).
        var needsToken: Bool
        /// The request's `Host` when it names another server (rule 1; ``isAllowedHost(_:)``), else nil.
        var foreignHost: String?
        var origin: String?
        var contentType: String?
        var hasBody: Bool
        /// Whether it may change state whatever its method (a WebSocket upgrade).
        var isWebSocket = false
    }

    /// Why the request is refused, or nil when it may go on. `carriesToken` is asked only when the
    /// request needs the token (not escaping: nothing is allocated for it).
    func refusal(_ request: Request, carriesToken: (String) -> Bool) -> APIError? {
        if let host = request.foreignHost {
            return APIError(.misdirected, "this server does not answer to the host '\(host)'; start it with --allow-host NAME to allow that name")
        }
        if let token, request.needsToken, !carriesToken(token) {
            return APIError(.unauthorized, "this server needs its access token: add ?token=... or an Authorization: Bearer header")
        }
        let changesState = request.isWebSocket || Self.mayChangeState(request.method)
        if changesState, let origin = request.origin, !isAllowedOrigin(origin) {
            return APIError(.forbidden, "requests from the origin '\(origin)' may not change anything here; start the server with --allow-origin \(origin) to allow it")
        }
        if changesState, request.hasBody || request.contentType != nil, !Self.isJSON(request.contentType) {
            return APIError(.unsupportedMediaType, "the body must be sent as Content-Type: application/json")
        }
        return nil
    }

    /// The rules for a complete request on the app's queue.
    func refusal(_ request: HTTPRequest) -> APIError? {
        refusal(Request(method: request.method, needsToken: guardsPath(request.path), foreignHost: foreign(request.headers["host"]), origin: request.headers["origin"],
                        contentType: request.headers["content-type"], hasBody: !request.body.isEmpty)) { token in
            Self.carries(token, authorization: request.headers["authorization"], queryToken: request.query["token"],
                         cookies: request.headers["cookie"])
        }
    }

    /// The rules for a bodiless request read on the loop thread. `Origin` and `Content-Type` are read
    /// only for a method that may change state: the rules look at them for nothing else.
    func refusal(_ request: RequestHead) -> APIError? {
        let mayChangeState = Self.mayChangeState(request.method)
        // `Host` is judged from its bytes (this runs for every request the loop thread answers); its text
        // is read only to say why it is refused.
        let hostIsForeign = request.value(of: .host) { host in host.map { !isAllowedHost(bytes: $0) } ?? false }
        return refusal(Request(method: request.method, needsToken: guardsPath(request.path), foreignHost: hostIsForeign ? request.value(of: .host) : nil,
                               origin: mayChangeState ? request.value(of: .origin) : nil,
                               contentType: mayChangeState ? request.value(of: .contentType) : nil, hasBody: false)) { token in
            Self.carries(token, authorization: request.value(of: .authorization),
                         queryToken: request.queryItems.first { $0.name == "token" }?.value, cookies: request.value(of: .cookie))
        }
    }

    /// The rules for a WebSocket upgrade: every WebSocket may change state.
    func refusal(_ upgrade: UpgradeRequest) -> APIError? {
        refusal(Request(method: .get, needsToken: guardsPath(upgrade.path), foreignHost: foreign(upgrade.headers["host"]), origin: upgrade.headers["origin"],
                        contentType: nil, hasBody: false, isWebSocket: true)) { token in
            Self.carries(token, authorization: upgrade.headers["authorization"], queryToken: upgrade.query["token"],
                         cookies: upgrade.headers["cookie"])
        }
    }

    /// Whether a request carries the token (always true when the server has none).
    func isAuthorized(headers: [String: String], query: [String: String]) -> Bool {
        guard let token else { return true }
        return Self.carries(token, authorization: headers["authorization"], queryToken: query["token"], cookies: headers["cookie"])
    }

    /// The cookie that lets the browser UI's later calls carry the token.
    var cookieHeader: (String, String)? {
        token.map { ("Set-Cookie", "\(Self.cookieName)=\($0); Path=/; HttpOnly; SameSite=Strict") }
    }

    /// Whether the server has a token and `path` is one it guards: `/api`, `/render`, `/ws` and `/mcp`.
    /// The path is made only when there is a token (the loop thread keeps it as bytes otherwise).
    private func guardsPath(_ path: @autoclosure () -> String) -> Bool {
        guard token != nil else { return false }
        let first = path().split(separator: "/", maxSplits: 1, omittingEmptySubsequences: true).first ?? ""
        return first == "api" || first == "render" || first == "ws" || first == "mcp"
    }

    /// Whether a method may change state (rule 3): any but GET, HEAD and OPTIONS.
    private static func mayChangeState(_ method: HTTPMethod) -> Bool {
        switch method {
        case .get, .head, .options: false
        default: true
        }
    }

    /// `host` when it is there and does not name this server.
    private func foreign(_ host: String?) -> String? {
        host.flatMap { isAllowedHost($0) ? nil : $0 }
    }

    /// Whether `Host` (`name`, `name:port`, `[v6]:port`) names this server.
    func isAllowedHost(_ host: String) -> Bool {
        var host = host
        return host.withUTF8 { isAllowedHost(bytes: $0) }
    }

    /// ``isAllowedHost(_:)`` on the header's bytes: a plain authority, what clients send, is compared as
    /// bytes; any other is read by ``generalAuthority(_:)``.
    func isAllowedHost(bytes: UnsafeBufferPointer<UInt8>) -> Bool {
        if let (nameEnd, _) = Self.plainAuthorityParts(bytes) {
            return allowedHostBytes.contains { allowed in allowed.count == nameEnd && bytes.holds(allowed, at: 0) }
        }
        guard let (name, _) = Self.generalAuthority(String(decoding: bytes, as: UTF8.self)) else { return false }
        return allowedHosts.contains(name)
    }

    /// `name[:port]` as a lowercased name (IPv6 in brackets) and its port; nil when malformed. What clients
    /// send is read from its bytes (``plainAuthority(_:)``), anything else by ``generalAuthority(_:)``.
    static func splitAuthority(_ authority: String) -> (String, Int?)? {
        plainAuthority(authority) ?? generalAuthority(authority)
    }

    /// The authority every client sends, read from its bytes: lowercase letters, digits, dots and hyphens
    /// not ending in a dot (so already normalised), then nothing or `:` and a port of one to five digits
    /// up to 65535. Nil for anything else (an IPv6 literal, capitals, a trailing dot, a malformed port),
    /// which ``generalAuthority(_:)`` reads; both give the same answer for every authority this accepts.
    static func plainAuthority(_ authority: String) -> (String, Int?)? {
        var authority = authority
        return authority.withUTF8 { bytes -> (String, Int?)? in
            guard let (nameEnd, port) = plainAuthorityParts(bytes) else { return nil }
            return (String(decoding: UnsafeBufferPointer(rebasing: bytes[..<nameEnd]), as: UTF8.self), port)
        }
    }

    /// ``plainAuthority(_:)`` on the bytes: where the name ends, and the port.
    private static func plainAuthorityParts(_ bytes: UnsafeBufferPointer<UInt8>) -> (nameEnd: Int, port: Int?)? {
        let nameEnd = bytes.firstIndex(of: UInt8(ascii: ":")) ?? bytes.count
        guard nameEnd > 0, bytes[nameEnd - 1] != UInt8(ascii: "."),
              bytes[..<nameEnd].allSatisfy(isPlainNameByte) else { return nil }
        guard nameEnd < bytes.count else { return (nameEnd, nil) }
        let digits = bytes[(nameEnd + 1)...]
        guard (1...5).contains(digits.count) else { return nil }
        var number = 0
        for digit in digits {
            guard (UInt8(ascii: "0")...UInt8(ascii: "9")).contains(digit) else { return nil }
            number = number * 10 + Int(digit - UInt8(ascii: "0"))
        }
        guard number <= 65535 else { return nil }
        return (nameEnd, number)
    }

    private static func isPlainNameByte(_ byte: UInt8) -> Bool {
        switch byte {
        case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "0")...UInt8(ascii: "9"), UInt8(ascii: "."), UInt8(ascii: "-"): true
        default: false
        }
    }

    /// Whether a browser's `Origin` is this server's own (an allowed host on the listening port) or allowed by name.
    func isAllowedOrigin(_ origin: String) -> Bool {
        if allowedOrigins.contains(origin) || (allowedOrigins.contains("*") && origin != "null") { return true }
        let scheme: String, defaultPort: Int
        if origin.hasPrefix("http://") {
            (scheme, defaultPort) = ("http://", 80)
        } else if origin.hasPrefix("https://") {
            (scheme, defaultPort) = ("https://", 443)
        } else {
            return false
        }
        guard let (name, port) = Self.splitAuthority(String(origin.dropFirst(scheme.count))) else { return false }
        return allowedHosts.contains(name) && (port ?? defaultPort) == self.port.value
    }

    /// `name[:port]` read character by character: lowercased (IPv6 in brackets), a trailing dot dropped.
    static func generalAuthority(_ authority: String) -> (String, Int?)? {
        var name = Substring(authority), port: Int?
        if authority.hasPrefix("[") {
            guard let close = authority.firstIndex(of: "]") else { return nil }
            name = authority[...close]
            let rest = authority[authority.index(after: close)...]
            if !rest.isEmpty {
                guard rest.first == ":", let number = Int(rest.dropFirst()), (0...65535).contains(number) else { return nil }
                port = number
            }
        } else if let colon = authority.lastIndex(of: ":") {
            name = authority[..<colon]
            guard let number = Int(authority[authority.index(after: colon)...]), (0...65535).contains(number) else { return nil }
            port = number
        }
        guard !name.isEmpty, !name.contains(where: { $0 == "/" || $0 == "," || $0 == "@" || $0 == " " }) else { return nil }
        return (normalizedHostName(String(name)), port)
    }

    private static func normalizedHostName(_ name: String) -> String {
        var lowered = name.lowercased()
        if lowered.hasSuffix("."), lowered.count > 1 { lowered.removeLast() }
        return lowered
    }

    private static func isJSON(_ contentType: String?) -> Bool {
        guard let contentType else { return false }
        let mediaType = contentType.split(separator: ";", maxSplits: 1).first.map { $0.trimmingCharacters(in: .whitespaces).lowercased() }
        return mediaType == "application/json" || mediaType == "application/json-patch+json"
    }

    private static func carries(_ token: String, authorization: String?, queryToken: String?, cookies: String?) -> Bool {
        if authorization == "Bearer \(token)" || queryToken == token { return true }
        guard let cookies else { return false }
        for pair in cookies.split(separator: ";") {
            let parts = pair.split(separator: "=", maxSplits: 1).map { $0.trimmingCharacters(in: .whitespaces) }
            if parts.count == 2, parts[0] == cookieName, parts[1] == token { return true }
        }
        return false
    }
}
