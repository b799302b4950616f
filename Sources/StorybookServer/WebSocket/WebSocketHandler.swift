import Foundation
import Logging
import PropsCatalog
import StorybookTransport

/// The WebSocket protocol over the hub: one parsed message in, states, errors and actions out.
/// Errors go to the sender alone; states go to every subscriber of the story.
struct WebSocketHandler {
    let hub: StoryHub
    let replays: ReplayController
    let presence: PresenceBoard
    let renderers: RendererRegistry
    let maxJSONDepth: Int
    /// The largest message the transport accepts (`--max-message-bytes`); the hello tells clients.
    let maxMessageBytes: Int
    /// Whether `GET /api/review` answers (`--snapshots`); the hello tells clients.
    var review = false
    let logger: Logger

    /// `{"type": "hello", "protocol": 1, "server", "connection", "maxMessageBytes", "review"}`, the first
    /// message of every connection; `connection` is its viewer id in `presence` lists, `maxMessageBytes`
    /// the largest message the server reads (a larger one closes the connection with 1009), `review`
    /// whether the review routes are on (without `--snapshots`, `GET /api/review` is a 404).
    static func hello(_ connection: ConnectionID, maxMessageBytes: Int, review: Bool) -> JSONValue {
        ["type": "hello", "protocol": 1, "server": "storybook", "connection": .string("ws:\(connection.raw)"),
         "maxMessageBytes": .integer(Int64(maxMessageBytes)), "review": .bool(review)]
    }

    func opened(_ connection: ConnectionID) {
        hub.send(Self.hello(connection, maxMessageBytes: maxMessageBytes, review: review), to: connection)
    }

    func received(_ bytes: [UInt8], from connection: ConnectionID) {
        switch ClientMessage.parse(bytes, maxDepth: maxJSONDepth) {
        case .failure(let failure):
            reject(failure.error, ref: failure.ref, story: failure.story, to: connection)
        case .success(let message):
            handle(message, from: connection)
        }
    }

    func closed(_ connection: ConnectionID) {
        let stories = hub.stories(subscribedBy: connection)
        renderers.closed(connection)
        hub.disconnect(connection)
        presence.disconnect(connection, from: stories)
    }

    private func handle(_ message: ClientMessage, from connection: ConnectionID) {
        let source = ChangeSource.webSocket(connection.raw, author: presence.author(of: connection))
        switch message {
        case .subscribe(let story, let environment, let delta, let ref):
            switch hub.subscribe(connection, to: story, environment: environment, delta: delta) {
            case .success:
                hub.sendState(of: story, to: connection)  // and the field it focuses
                if let replay = replays.running(story) { hub.send(replay, to: connection) }
                presence.publish(story)
                renderers.sendReports(of: story, to: connection)
            case .failure(let error):
                reject(error, ref: ref, story: story, to: connection)
            }
        case .unsubscribe(let story, let ref):
            if hub.unsubscribe(connection, from: story) {
                presence.publish(story)
            } else {
                reject(APIError(.notSubscribed, "not subscribed to '\(story)'"), ref: ref, story: story, to: connection)
            }
        case .identify(let author):
            presence.identify(connection, as: author)
        case .focus(let story, let path, let ref):
            guard hub.catalog.story(id: story) != nil else {
                reject(APIError(.notFound, "unknown story '\(story)'"), ref: ref, story: story, to: connection)
                return
            }
            presence.focus(connection, story: story, path: path?.description)
            hub.focus(connection, story: story, pointer: path)
        case .replace(let story, let props, let base, let ref, let undoGroup):
            edit(.replace(props), story: story, base: base, ref: ref, undoGroup: undoGroup, source: source, connection: connection)
        case .patch(let story, let patch, let base, let ref, let undoGroup):
            edit(.patch(patch), story: story, base: base, ref: ref, undoGroup: undoGroup, source: source, connection: connection)
        case .reset(let story, let base, let ref):
            edit(.reset, story: story, base: base, ref: ref, source: source, connection: connection)
        case .undo(let story, let base, let ref):
            edit(.undo, story: story, base: base, ref: ref, source: source, connection: connection)
        case .redo(let story, let base, let ref):
            edit(.redo, story: story, base: base, ref: ref, source: source, connection: connection)
        case .seek(let story, let version, let base, let ref):
            edit(.seek(version: version), story: story, base: base, ref: ref, source: source, connection: connection)
        case .dispatch(let story, let invocation, let ref):
            answer(hub.dispatch(invocation, to: story, source: source, ref: ref), story: story, ref: ref, to: connection)
        case .replay(let story, let request, let ref):
            if case .failure(let error) = replays.start(story: story, request: request) {
                reject(error, ref: ref, story: story, to: connection)
            }
        case .replayStop(let story, let ref):
            if !replays.stop(story) {
                reject(APIError(.notFound, "no replay is playing on '\(story)'"), ref: ref, story: story, to: connection)
            }
        case .renderer(let message):
            if case .failure(let error) = renderers.handle(message, from: connection) {
                reject(error, ref: message.ref, story: message.story, to: connection)
            }
        case .history(let story, let since, let ref):
            switch hub.session(story) {
            case .success(let session):
                guard case .object(var members) = HistoryMessage.json(session, since: since) else { return }
                members["type"] = "history"
                if let ref { members["ref"] = .string(ref) }
                hub.send(.object(members), to: connection)
            case .failure(let error):
                reject(error, ref: ref, story: story, to: connection)
            }
        }
    }

    private func edit(_ edit: Edit, story: String, base: Int?, ref: String?, undoGroup: String? = nil, source: ChangeSource, connection: ConnectionID) {
        answer(hub.apply(edit, to: story, base: base, source: source, ref: ref, undoGroup: undoGroup, by: connection),
               story: story, ref: ref, to: connection)
    }

    /// The sender of an edit hears of its refusal (`error`); of its success from the state it brings
    /// when subscribed to the story, else, when the edit has a `ref` to answer, from an `applied` with
    /// the live version (a script that edits without a ref, and may never read, is sent nothing).
    private func answer(_ result: Result<StorySession, APIError>, story: String, ref: String?, to connection: ConnectionID) {
        switch result {
        case .failure(let error):
            reject(error, ref: ref, story: story, to: connection)
        case .success(let session):
            guard let ref, !hub.isSubscribed(connection, to: story) else { return }
            hub.send(["type": "applied", "story": .string(story), "version": .integer(Int64(session.version)), "ref": .string(ref)], to: connection)
        }
    }

    private func reject(_ error: APIError, ref: String?, story: String?, to connection: ConnectionID) {
        logger.warning("message refused", metadata: ["sb.conn": "\(connection.raw)", "sb.code": "\(error.code)", "sb.reason": "\(error.message)"])
        guard case .object(var members) = error.json else { return }
        members["type"] = "error"
        if let ref { members["ref"] = .string(ref) }
        if let story { members["story"] = .string(story) }
        hub.send(.object(members), to: connection)
    }
}
