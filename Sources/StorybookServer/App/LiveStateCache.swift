import PropsCatalog
import Synchronization

/// Every live session's state, published by the hub after each accepted change (after the journal
/// write) and serialized when first asked for: the `GET /api/stories/{id}` answer the event loop
/// serves from memory, and the full `state` message new subscribers and clients without deltas get.
///
/// A version that only subscribers taking deltas hear of is never serialized whole, so an edit of
/// one item of a long list does not pay for the rest.
final class LiveStateCache: Sendable {
    private struct Published {
        let live: LiveVersion
        var state: StateMessage?
        var body: [UInt8]?
    }

    private let published = Mutex(StoryTable<Published>())

    /// Makes the session's live version the story's current state; nothing is serialized yet.
    func publish(_ session: StorySession) {
        let entry = Published(live: LiveVersion(session))
        published.withLock { $0[id: session.story.id] = entry }
    }

    /// The latest answer for the story whose id's UTF-8 bytes these are, when it has been serialized (the
    /// loop thread's immediate path, which reads the id out of the request's path: nil sends the
    /// request to the app queue, which serializes it).
    func body(utf8 storyID: UnsafeBufferPointer<UInt8>) -> [UInt8]? {
        published.withLock { $0.withValue(utf8: storyID) { $0.body } ?? nil }
    }

    /// The `GET /api/stories/{id}` answer for `session`: the published version's bytes, serialized
    /// once and kept; serialized afresh for a session that is not the published version.
    func body(of session: StorySession) -> [UInt8] {
        guard let state = state(session.story.id), state.version == session.version else {
            return StateMessage(session).resource
        }
        if let body = published.withLock({ $0[id: session.story.id]?.body }) { return body }
        let body = state.resource
        published.withLock { entries in
            if entries[id: session.story.id]?.live.version == state.version { entries[id: session.story.id]?.body = body }
        }
        return body
    }

    /// The latest state of a story, serialized on first use, if its session exists. Called on the
    /// app queue, the only writer, so a version is serialized once.
    func state(_ storyID: String) -> StateMessage? {
        guard let entry = published.withLock({ $0[id: storyID] }) else { return nil }
        if let state = entry.state { return state }
        let state = StateMessage(entry.live)
        published.withLock { entries in
            if entries[id: storyID]?.live.version == state.version { entries[id: storyID]?.state = state }
        }
        return state
    }
}
