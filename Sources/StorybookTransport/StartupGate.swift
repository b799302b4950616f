import Dispatch
import Synchronization

/// Carries the outcome of starting the loop (the bound port, or why it failed) from the loop thread back
/// to the thread blocked in ``Transport/start()``. One-shot.
final class StartupGate: Sendable {
    private let outcome = Mutex<Result<Int, TransportError>?>(nil)
    private let signal = DispatchSemaphore(value: 0)

    /// Called once, on the loop thread.
    func publish(_ result: Result<Int, TransportError>) {
        outcome.withLock { $0 = result }
        signal.signal()
    }

    /// Blocks until the loop thread publishes.
    func wait() -> Result<Int, TransportError> {
        signal.wait()
        return outcome.withLock { $0 ?? .failure(.contextCreationFailed) }
    }
}
