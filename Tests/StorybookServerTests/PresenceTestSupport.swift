import Synchronization
@testable import StorybookServer

extension PresenceBoard {
    /// A board whose lists are sent at once, not after the app queue's waiting work, and whose agents
    /// never expire: for tests that read presence messages right after what changed the list.
    static func sendingAtOnce(hub: StoryHub) -> PresenceBoard {
        PresenceBoard(hub: hub) { delay, work in if delay == 0 { work() } }
    }
}

/// Work a scheduler was given, run by the test when it chooses.
final class ScheduledWork: Sendable {
    private let work = Mutex<[@Sendable () -> Void]>([])

    func add(_ item: @escaping @Sendable () -> Void) { work.withLock { $0.append(item) } }

    var all: [@Sendable () -> Void] { work.withLock { $0 } }
}
