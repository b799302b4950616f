/// What the caller threads and a ``WebSocketClient``'s loop thread share; only under its mutex.
struct ClientSharedState {
    enum Phase {
        case idle, starting
        case running(LoopWaker)
        case stopped
    }

    /// A command for the client loop.
    enum Command {
        case connect(UInt64, WebSocketClientTarget)
        case send(UInt64, [UInt8])
        case disconnect
        case shutdown
    }

    var phase = Phase.idle
    var mailbox: [Command] = []
    /// The number of the current connection attempt.
    var attempt: UInt64 = 0
    var thread: LoopThread?

    /// Queues a command for the loop (while it starts, too; dropped once it stopped). Only the command
    /// that finds the mailbox empty needs to wake the running loop: it returns the waker with a wake-up
    /// reserved, to make once the mutex is released (``LoopWaker/wakeReserved()``).
    mutating func post(_ command: Command) -> LoopWaker? {
        switch phase {
        case .starting:
            mailbox.append(command)
        case .running(let waker):
            let wasEmpty = mailbox.isEmpty
            mailbox.append(command)
            if wasEmpty { return waker.reserve() }
        case .idle, .stopped:
            break
        }
        return nil
    }
}
