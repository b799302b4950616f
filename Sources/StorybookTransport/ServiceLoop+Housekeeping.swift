import CLibWebSockets

/// Periodic checks (stalled clients, the shutdown deadline) and the shutdown sequence.
extension ServiceLoop {
    /// Runs every housekeeping interval, on the housekeeping timer.
    func runHousekeeping() {
        housekeepingRound += 1
        let now = clock.now
        for connection in connections.webSockets {
            guard let session = connection.webSocket else { continue }
            if session.watchdog.isStalled(inRound: housekeepingRound, rounds: stalledAfterRounds) {
                logger.info("dropping websocket: output stalled", metadata: ["sb.conn": "\(connection.id)"])
                drop(connection)
            } else {
                checkLiveness(connection, session, now: now)
            }
        }
        if case .draining(let deadline) = lifecycle, now >= deadline {
            logger.debug("shutdown grace period over")
            lifecycle = .finished
        }
        if lifecycle == .finished, let context {
            // Timers run before lws waits in poll(2): without a wake-up, `serve` would only see the
            // end at the next socket event or lws timeout, seconds later.
            lws_cancel_service(context)
        }
        if lifecycle != .finished {
            scheduleHousekeeping()
        }
    }

    /// Closes every WebSocket with 1001 and stops once they are gone (or the grace period is over).
    func beginShutdown() {
        guard lifecycle == .serving else { return }
        lifecycle = .draining(deadline: clock.now + configuration.shutdownGracePeriod)
        for connection in connections.webSockets {
            closeGracefully(connection, .goingAway)
        }
        finishDrainingIfDone()
    }

    /// Ends the loop when draining and no WebSocket remains.
    func finishDrainingIfDone() {
        if case .draining = lifecycle, !connections.hasWebSockets {
            lifecycle = .finished
        }
    }
}
