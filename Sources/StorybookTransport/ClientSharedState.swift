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

    /// Queues a command and wakes the loop; false when the loop is not running.
    mutating func post(_ command: Command) -> Bool {
        guard case .running(let waker) = phase else {
            if case .starting = phase { mailbox.append(command); return true }
            return false
        }
        let wasEmpty = mailbox.isEmpty
        mailbox.append(command)
        if wasEmpty { waker.wake() }
        return true
    }
}
