import Synchronization

/// The port a server listens on, set once the transport bound it (port 0 picks one at start).
final class ListeningPort: Sendable {
    private let stored = Atomic<Int>(0)

    init(_ port: Int = 0) {
        stored.store(port, ordering: .relaxed)
    }

    var value: Int { stored.load(ordering: .relaxed) }

    func set(_ port: Int) {
        stored.store(port, ordering: .relaxed)
    }
}
