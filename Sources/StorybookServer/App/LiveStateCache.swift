import PropsCatalog
import Synchronization

/// The serialized `GET /api/stories/{id}` answer of every live session, published by the hub after
/// each accepted change (after the journal write), so the event loop can answer it from memory.
final class LiveStateCache: Sendable {
    private let bodies = Mutex<[String: [UInt8]]>([:])

    func publish(_ session: StorySession) {
        let bytes = StateMessage.resource(session).serializedBytes()
        bodies.withLock { $0[session.story.id] = bytes }
    }

    /// The latest answer for a story, if its session exists.
    func body(_ storyID: String) -> [UInt8]? {
        bodies.withLock { $0[storyID] }
    }
}
