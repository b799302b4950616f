import Dispatch
import Synchronization

/// Writes files one at a time on a queue of its own, so that the threads rendering them never
/// wait: creating entries in one directory takes the directory's lock in the kernel, and threads
/// contending for it (or for a lock of ours around it) spin there instead of rendering.
/// The first failure is kept; later work is skipped and `finish` throws it.
package final class SerialWriter: Sendable {
    private let queue = DispatchQueue(label: "storybook.snapshots.writer")
    private let firstFailure = Mutex<SnapshotError?>(nil)

    /// The first failure so far, if any: renderers check it to stop early.
    package var failure: SnapshotError? { firstFailure.withLock { $0 } }

    /// Queues `work`, which runs after everything queued before it unless something failed.
    package func enqueue(_ work: @escaping @Sendable () throws(SnapshotError) -> Void) {
        queue.async { [self] in
            guard firstFailure.withLock({ $0 == nil }) else { return }
            do throws(SnapshotError) {
                try work()
            } catch {
                firstFailure.withLock { $0 = $0 ?? error }
            }
        }
    }

    /// Waits for everything queued, then throws the first failure, if any.
    package func finish() throws(SnapshotError) {
        queue.sync {}
        if let failure { throw failure }
    }
}
