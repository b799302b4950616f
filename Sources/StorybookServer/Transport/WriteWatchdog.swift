/// Notices a WebSocket whose pending output stops draining.
///
/// The loop starts the watch when it asks libwebsockets for a writeable callback with output still
/// pending, and resets it whenever such a callback arrives (the socket accepted data). A watch older than
/// the slow-client timeout means the peer has stopped reading.
struct WriteWatchdog {
    private(set) var waitingSince: ContinuousClock.Instant?

    /// Output is pending and the loop is waiting for the socket to accept more.
    mutating func startWaiting(at now: ContinuousClock.Instant) {
        if waitingSince == nil {
            waitingSince = now
        }
    }

    /// The socket accepted data: whatever is still pending starts a fresh wait.
    mutating func madeProgress() {
        waitingSince = nil
    }

    /// Whether output has been pending without progress for at least `timeout`.
    func isStalled(at now: ContinuousClock.Instant, timeout: Duration) -> Bool {
        guard let waitingSince else { return false }
        return now - waitingSince >= timeout
    }
}
