/// The part of the transport that caller threads and the loop thread share. Only ever accessed under
/// ``Transport``'s mutex.
struct SharedState {
    enum Phase {
        /// Not started yet.
        case idle
        /// `start()` is creating the loop thread and context.
        case starting
        /// The loop runs; commands are accepted.
        case running(LoopWaker)
        /// The loop has ended (or never started); commands are dropped.
        case stopped
    }

    var phase = Phase.idle
    /// Commands not yet taken by the loop, oldest first.
    var mailbox: [LoopCommand] = []
    var shutdownRequested = false
    /// The loop thread, until someone joins it.
    var thread: LoopThread?

    /// Queues a command for the loop and wakes it; `false` when the loop is not running.
    ///
    /// The wake-up (`lws_cancel_service`) happens under the mutex while the phase is `running`: the loop
    /// leaves that phase under the same mutex before it destroys the context, so the context is alive
    /// here. The loop drains the whole mailbox on each
    /// wake-up, so only the command that finds the mailbox empty needs to wake it.
    mutating func post(_ command: LoopCommand) -> Bool {
        guard case .running(let waker) = phase else { return false }
        let wasEmpty = mailbox.isEmpty
        mailbox.append(command)
        if wasEmpty {
            waker.wake()
        }
        return true
    }

    /// Takes every queued command (the loop calls this when woken).
    mutating func takeMailbox() -> [LoopCommand] {
        guard !mailbox.isEmpty else { return [] }
        let commands = mailbox
        mailbox = []
        return commands
    }
}
