import CLibWebSockets
#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization

/// The handle other threads use to wake a loop: `lws_cancel_service`, the one libwebsockets call that
/// may be made from any thread while the context exists.
///
/// A poster reserves a wake-up under its owner's mutex while the phase is `running` (``reserve()``) and
/// makes it once the mutex is released (``wakeReserved()``): woken under the mutex, the loop thread ran
/// into it still held and waited for it on every message. The loop leaves `running` under the same
/// mutex, then waits for the wake-ups reserved before (``waitForReservedWakeUps()``) before it destroys
/// the context, so the context outlives every wake-up. The server's ``Transport`` and the client's
/// ``WebSocketClient`` both wake their loops this way.
final class LoopWaker: @unchecked Sendable {
    // @unchecked: it wraps the `lws_context` pointer, which is not Sendable. Other threads only ever pass
    // it to `lws_cancel_service`, and only with a wake-up reserved, which the loop waits for.
    private let context: OpaquePointer
    private let reserved = Atomic<Int>(0)

    init(context: OpaquePointer) {
        self.context = context
    }

    /// Reserves a wake-up; only under the owner's mutex while its phase is `running`.
    func reserve() -> LoopWaker {
        reserved.add(1, ordering: .relaxed)
        return self
    }

    /// Makes a reserved wake-up, outside the mutex: the loop's current or next `lws_service` delivers
    /// `LWS_CALLBACK_EVENT_WAIT_CANCELLED`.
    func wakeReserved() {
        lws_cancel_service(context)
        reserved.subtract(1, ordering: .releasing)
    }

    /// Wake-ups reserved and not made yet.
    var reservedCount: Int { reserved.load(ordering: .acquiring) }

    /// On the loop thread, after leaving `running` under the mutex (no wake-up is reserved from then on):
    /// waits for the ones reserved before, so that the context can be destroyed.
    func waitForReservedWakeUps() {
        while reservedCount != 0 { sched_yield() }
    }
}
