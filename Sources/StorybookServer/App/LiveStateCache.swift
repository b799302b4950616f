import PropsCatalog
import Synchronization

/// Every live session's serialized state, published by the hub after each accepted change (after the
/// journal write): the `GET /api/stories/{id}` answer the event loop serves from memory, and the
/// pieces the hub splices into `state` messages.
final class LiveStateCache: Sendable {
    private struct Published {
        let state: StateMessage
        let body: [UInt8]
    }

    private let published = Mutex<[String: Published]>([:])

    /// Serializes the session's live version once and makes it the story's current state.
    @discardableResult
    func publish(_ session: StorySession) -> StateMessage {
        let state = StateMessage(session)
        let entry = Published(state: state, body: state.resource)
        published.withLock { $0[session.story.id] = entry }
        return state
    }

    /// The latest answer for a story, if its session exists.
    func body(_ storyID: String) -> [UInt8]? {
        published.withLock { $0[storyID]?.body }
    }

    /// The `GET /api/stories/{id}` answer for `session`: the published bytes when it is the published
    /// version (every session the hub hands out is), serialized afresh otherwise.
    func body(of session: StorySession) -> [UInt8] {
        let current = published.withLock { $0[session.story.id] }
        if let current, current.state.version == session.version { return current.body }
        return StateMessage(session).resource
    }

    /// The latest state of a story, if its session exists.
    func state(_ storyID: String) -> StateMessage? {
        published.withLock { $0[storyID]?.state }
    }
}
