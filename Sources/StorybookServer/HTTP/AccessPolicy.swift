import Foundation
import PropsCatalog
import StorybookTransport

/// Who may call the API and open WebSockets: the access token rule and the Origin rule.
struct AccessPolicy: Sendable {
    static let cookieName = "storybook-token"

    let token: String?
    let allowedOrigins: [String]

    /// Whether a request carries the token: `Authorization: Bearer`, `?token=` or the cookie the UI got.
    func isAuthorized(headers: [String: String], query: [String: String]) -> Bool {
        guard let token else { return true }
        return Self.carries(token, authorization: headers["authorization"], queryToken: query["token"], cookies: headers["cookie"])
    }

    /// The same rule on the loop thread, reading the headers only when a token is required; `query` is
    /// the request's query items, read once by the caller.
    func isAuthorized(_ request: RequestHead, query: [QueryItem]) -> Bool {
        guard let token else { return true }
        return Self.carries(token, authorization: request.value(of: .authorization),
                            queryToken: query.first { $0.name == "token" }?.value, cookies: request.value(of: .cookie))
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

    /// The WebSocket Origin rule: no Origin (a script) is accepted; a browser's Origin must be the
    /// server's own (the Host it asked for) or one given with `--allow-origin`.
    func isAllowedOrigin(_ origin: String?, host: String?) -> Bool {
        guard let origin, !origin.isEmpty else { return true }
        if allowedOrigins.contains("*") || allowedOrigins.contains(origin) { return true }
        guard let host, let url = URL(string: origin), let originHost = url.host else { return false }
        let originAuthority = url.port.map { "\(originHost):\($0)" } ?? originHost
        return originAuthority.lowercased() == host.lowercased() && (url.scheme == "http" || url.scheme == "https")
    }

    /// The cookie that lets the browser UI's later calls carry the token.
    var cookieHeader: (String, String)? {
        token.map { ("Set-Cookie", "\(Self.cookieName)=\($0); Path=/; HttpOnly; SameSite=Strict") }
    }
}
