import Dispatch

/// The serial queue that owns all story state: every edit, validation, render, journal write and
/// broadcast runs on it, in arrival order, so sessions need no locks. Types that assume the rule
/// (``StoryHub``, and the presence board, replays and renderer registry beside it) check it at
/// their entry points (``StoryHub/assertOnQueue()``): calling them from anywhere else traps at once
/// instead of racing (`dispatchPrecondition`, checked in debug and release builds).
///
/// Long read-only work (the review page's full check) does not belong here: it runs on
/// ``readOnlyWork`` with values copied from this queue, so edits never wait behind it.
final class AppQueue: Sendable {
    let queue = DispatchQueue(label: "storybook.app", qos: .userInitiated)
    /// Where read-only work that may take long runs, off the queue that applies edits.
    let readOnlyWork = DispatchQueue(label: "storybook.read-only", qos: .userInitiated, attributes: .concurrent)

    func async(_ work: @escaping @Sendable () -> Void) {
        queue.async(execute: work)
    }

    /// Runs `work` after `delay` seconds; with no delay, after the work already waiting (no timer).
    func asyncAfter(_ delay: Double, _ work: @escaping @Sendable () -> Void) {
        guard delay > 0 else { return queue.async(execute: work) }
        queue.asyncAfter(deadline: .now() + delay, execute: work)
    }

    func sync<T>(_ work: () throws -> T) rethrows -> T {
        try queue.sync(execute: work)
    }

    /// Traps unless called on the app queue.
    func assertOnQueue() {
        dispatchPrecondition(condition: .onQueue(queue))
    }
}
