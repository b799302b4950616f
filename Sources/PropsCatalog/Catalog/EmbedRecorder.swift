import Synchronization

/// Collects the children `Embed` meets while a parent renders (only while one is installed).
final class EmbedRecorder: Sendable {
    /// The recorder of the render running on this task, if any.
    @TaskLocal static var current: EmbedRecorder?

    private let recorded = Mutex<[EmbeddedChild]>([])

    var children: [EmbeddedChild] { recorded.withLock { $0 } }

    func record(_ child: EmbeddedChild) {
        recorded.withLock { $0.append(child) }
    }

    /// The children embedded by `render()`, directly (not their own children).
    static func children(_ render: () -> [ViewNode]) -> [EmbeddedChild] {
        let recorder = EmbedRecorder()
        _ = $current.withValue(recorder) { render() }
        return recorder.children
    }
}
