import PropsCatalog

/// The mutable state of a ``StorybookClient``, under its mutex.
struct ClientState {
    var status = StorybookClient.Status.idle
    var showing: String?
    var followers: [String: Follower] = [:]
    /// The largest message the server reads, from its `hello` on this connection (nil until then, or
    /// when the server does not say).
    var serverMessageLimit: Int?
    /// Failed or ended connections since the last successful one: the backoff's exponent.
    var failures = 0
}

/// A state message for a followed component, not decoded yet.
struct StateUpdate: Sendable {
    let story: String
    let component: String
    let version: Int
    let props: JSONValue
}

/// A component the app follows and what to do with its states.
struct Follower: Sendable {
    let componentID: String
    let deliver: @Sendable (StateUpdate) -> Void
}

/// Reconnection delays: `minimum`, doubling per failure, capped at `maximum`.
enum Backoff {
    static func delay(after failures: Int, minimum: Duration, maximum: Duration) -> Duration {
        let doublings = min(max(failures - 1, 0), 30)
        return min(minimum * (1 << doublings), maximum)
    }
}
