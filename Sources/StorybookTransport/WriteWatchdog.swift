/// Notices a WebSocket whose pending output stops draining.
///
/// The loop starts the watch when it asks libwebsockets for a writeable callback with output still
/// pending, and resets it whenever such a callback arrives (the socket accepted data). A watch that
/// has lasted the slow-client timeout means the peer has stopped reading.
///
/// Time is counted in housekeeping rounds (the loop's periodic check), not read from a clock: starting
/// the watch is then a plain integer store, cheap enough for every delivery of a broadcast. A watch
/// started in round `r` has lasted at least `(n - 1)` round intervals in round `r + n`.
struct WriteWatchdog {
    private(set) var waitingSinceRound: Int?

    /// Output is pending and the loop is waiting for the socket to accept more.
    mutating func startWaiting(inRound round: Int) {
        if waitingSinceRound == nil {
            waitingSinceRound = round
        }
    }

    /// The socket accepted data: whatever is still pending starts a fresh wait.
    mutating func madeProgress() {
        waitingSinceRound = nil
    }

    /// Whether output has been pending without progress for `rounds` rounds or more.
    func isStalled(inRound round: Int, rounds: Int) -> Bool {
        guard let waitingSinceRound else { return false }
        return round - waitingSinceRound >= rounds
    }

    /// How many rounds of `interval` make sure at least `timeout` has passed since a watch started
    /// (it may have started just before a round ended).
    static func rounds(for timeout: Duration, interval: Duration) -> Int {
        Int((timeout / interval).rounded(.up)) + 1
    }
}
