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

    /// Queues a command for the loop; `accepted` is false when the loop is not running. The loop drains
    /// the whole mailbox on each wake-up, so only the command that finds the mailbox empty needs to wake
    /// it: that one gets the `waker` with a wake-up reserved, to make once the mutex is released
    /// (``LoopWaker/wakeReserved()``).
    mutating func post(_ command: LoopCommand) -> (accepted: Bool, waker: LoopWaker?) {
        guard case .running(let waker) = phase else { return (false, nil) }
        let wasEmpty = mailbox.isEmpty
        mailbox.append(command)
        return (true, wasEmpty ? waker.reserve() : nil)
    }

    /// Takes every queued command (the loop calls this when woken).
    mutating func takeMailbox() -> [LoopCommand] {
        guard !mailbox.isEmpty else { return [] }
        let commands = mailbox
        mailbox = []
        return commands
    }
}
