import Foundation
import Logging
import PropsCatalog
import StorybookTransport

/// The live stories and who listens to them: applies every edit through its story's session and
/// fans accepted changes out to the story's subscribers.
///
/// Not thread-safe by itself: it lives on the ``AppQueue``. When it has one (``owner``, as in the
/// server), every entry point checks that it runs there.
final class StoryHub {
    /// The served catalog; it grows when a variant is saved.
    private(set) var catalog: Catalog
    private let sink: any MessageSink
    private let logger: Logger
    private var sessions: [String: StorySession] = [:]
    private var subscribers: [String: Set<ConnectionID>] = [:]
    private var subscriptions: [ConnectionID: Set<String>] = [:]
    /// The environment each connection's states are rendered in, when it is not the default.
    private var environments: [ConnectionID: ViewEnvironment] = [:]
    /// The subscribers of each story that take deltas (``StateDelta``) instead of whole states.
    private var deltaSubscribers: [String: Set<ConnectionID>] = [:]
    /// The string field each connection focuses, for its `preview-field` messages (StoryHub+PreviewFields.swift).
    let previewFields = PreviewFields()
    /// Where accepted changes are written before anyone hears of them; nil with `--no-persist`.
    var journal: Journal?
    /// How big edited props may get (in proportion to the message cap); bigger edits are refused `too-large`.
    var sizeLimit = JSONSizeLimit.default
    /// Where saved variants are written; nil when saving is off.
    var variants: VariantStore?
    /// Saved variants that could not be loaded, listed in the index.
    var unloadable: [VariantStore.Unloadable] = []
    /// Every live session's HTTP answer, for the event loop to serve from memory.
    let liveStates = LiveStateCache()
    /// The queue this hub lives on; nil in unit tests that drive it from one thread.
    var owner: AppQueue?

    init(catalog: Catalog, sink: any MessageSink, logger: Logger) {
        self.catalog = catalog
        self.sink = sink
        self.logger = logger
    }

    /// Traps unless called on the hub's queue (when it has one). Every entry point of the hub, and of
    /// the types that live beside it on the queue (presence, replays, renderers), calls this first.
    func assertOnQueue() {
        owner?.assertOnQueue()
    }

    /// Makes restored sessions live, before any request is served.
    func install(_ restored: [String: StorySession]) {
        assertOnQueue()
        sessions.merge(restored) { _, restored in restored }
        for session in restored.values { liveStates.publish(session) }
    }

    /// The session of a story, created at version 1 on first use.
    func session(_ storyID: String) -> Result<StorySession, APIError> {
        assertOnQueue()
        if let session = sessions[storyID] { return .success(session) }
        guard let story = catalog.story(id: storyID) else {
            return .failure(APIError(.notFound, "unknown story '\(storyID)'"))
        }
        do {
            let session = try StorySession(story: story)
            sessions[storyID] = session
            liveStates.publish(session)
            return .success(session)
        } catch {
            return .failure(APIError(error))
        }
    }

    /// Applies `edit` to a story; on success the new state goes to every subscriber. `connection`: the
    /// WebSocket the edit came on, if any; `undoGroup`: see `StorySession.prepare`.
    func apply(_ edit: Edit, to storyID: String, base: Int? = nil, source: ChangeSource, ref: String? = nil,
               undoGroup: String? = nil, by connection: ConnectionID? = nil) -> Result<StorySession, APIError> {
        assertOnQueue()
        switch session(storyID) {
        case .failure(let error):
            return .failure(error)
        case .success(var session):
            switch session.prepare(edit, base: base, source: source, ref: ref, undoGroup: undoGroup, limit: sizeLimit) {
            case .failure(let error):
                logger.warning("edit refused", metadata: ["sb.story": "\(storyID)", "sb.code": "\(error.code)", "sb.reason": "\(error.message)"])
                return .failure(APIError(error))
            case .success(nil):
                return .success(session)
            case .success(let prepared?):
                // Serialized once, for the journal and every state message.
                let serialized = SerializedEntry(prepared.entry)
                if let journal {
                    do {
                        try journal.record(serialized, of: session)
                    } catch {
                        return .failure(error)
                    }
                }
                sessions[storyID] = nil  // the only reference left is `session`: commit mutates in place
                let previous = session.projections
                _ = session.commit(prepared)
                sessions[storyID] = session
                journal?.compactIfNeeded { Array(self.sessions.values) }
                liveStates.publish(session)
                broadcastState(of: session, previous: previous, cause: serialized)
                // What the edit replaced is found and freed once the state is on its way (the
                // previous projections too, on return), where no subscriber waits for it.
                session.memo.forgetReplaced()
                sendPreviewFields(of: session, ownEdit: FieldEdit(edit, by: connection))
                return .success(session)
            }
        }
    }

    /// Dispatches a command: every subscriber gets the `action` (before the state it leads to), then
    /// the props the component suggests for it, if any, are applied like any edit.
    func dispatch(_ invocation: CommandInvocation, to storyID: String, source: ChangeSource, ref: String? = nil) -> Result<StorySession, APIError> {
        guard case .success(let session) = session(storyID) else {
            return .failure(APIError(.notFound, "unknown story '\(storyID)'"))
        }
        var action: [String: JSONValue] = [
            "type": "action", "story": .string(storyID), "command": .string(invocation.command.name),
            "source": .string(source.description), "at": .string(ISO8601.string(from: Date())),
            "version": .integer(Int64(session.version)),
        ]
        if let author = source.author { action["author"] = author.json }
        if let payload = invocation.payload { action["payload"] = payload }
        // A command from an embedded child's view: the child component that handles it.
        if let handler = session.story.component.handlers(of: invocation.command, in: session.props).last {
            action["handledBy"] = .string(handler)
        }
        if let ref { action["ref"] = .string(ref) }
        broadcast(.object(action), story: storyID, coalesce: false)
        return apply(.dispatch(invocation), to: storyID, source: source, ref: ref)
    }

    /// Writes a story's live props as a new saved variant of its component and serves it as a
    /// story from now on. The name must make an id no variant of the component has.
    func saveVariant(of storyID: String, named name: String) -> Result<Catalog.Story, APIError> {
        assertOnQueue()
        guard let variants else {
            return .failure(APIError(.notFound, "saving variants is off: start the server with --variants-dir"))
        }
        let session: StorySession
        switch self.session(storyID) {
        case .success(let value): session = value
        case .failure(let error): return .failure(error)
        }
        guard let component = catalog.component(id: session.story.component.id) else {
            return .failure(APIError(.notFound, "unknown component '\(session.story.component.id)'"))
        }
        let trimmed = name.trimmingCharacters(in: .whitespacesAndNewlines)
        guard !trimmed.isEmpty, name.count <= 120 else {
            return .failure(APIError(.badMessage, "a variant name has 1 to 120 characters", path: "/name"))
        }
        guard !name.unicodeScalars.contains(where: { $0.properties.generalCategory == .control }) else {
            return .failure(APIError(.badMessage, "a variant name may not contain control characters", path: "/name"))
        }
        let extended: AnyComponent
        switch component.addingSavedVariant(named: trimmed, props: session.props) {
        case .success(let value): extended = value
        case .failure(let error): return .failure(APIError(error))
        }
        do throws(APIError) {
            try variants.save(session.props, named: trimmed, of: component)
        } catch {
            return .failure(error)
        }
        do {
            catalog = try catalog.replacing(extended)
        } catch {
            return .failure(APIError(.conflict, error.description, path: "/name"))
        }
        let id = Slug.storyID(componentID: component.id, variantName: trimmed)
        logger.info("saved variant", metadata: ["sb.story": "\(id)", "sb.file": "\(variants.directory.path)"])
        return catalog.story(id: id).map(Result.success) ?? .failure(APIError(.notFound, "the saved story '\(id)' is missing"))
    }

    /// Subscribes a connection, whose states are rendered in `environment` from now on; the caller
    /// sends it the current state. With `delta`, the story's later states in the default environment
    /// come as ``StateDelta``s.
    func subscribe(_ connection: ConnectionID, to storyID: String, environment: ViewEnvironment = .standard, delta: Bool = false) -> Result<StorySession, APIError> {
        assertOnQueue()
        let result = session(storyID)
        if case .success = result {
            subscribers[storyID, default: []].insert(connection)
            subscriptions[connection, default: []].insert(storyID)
            environments[connection] = environment.isStandard ? nil : environment
            if delta {
                deltaSubscribers[storyID, default: []].insert(connection)
            } else {
                deltaSubscribers[storyID]?.remove(connection)
            }
        }
        return result
    }

    /// Sends a new live state to every subscriber: one delta to those that take deltas, the published
    /// state to the others in the default environment, the state rendered once per other environment
    /// to the rest.
    ///
    /// Connections are grouped only when some have an environment or take deltas (hashing per
    /// subscriber cost more than building the message): with none, everyone gets the published state.
    private func broadcastState(of session: StorySession, previous: Projections, cause: SerializedEntry) {
        let storyID = session.story.id
        let subscribers = subscribers(of: storyID)
        guard !subscribers.isEmpty else { return }
        var standard = subscribers
        var deltas: [ConnectionID] = []
        var byEnvironment: [ViewEnvironment: [ConnectionID]] = [:]
        let takingDeltas = deltaSubscribers[storyID] ?? []
        if !environments.isEmpty || !takingDeltas.isEmpty {
            standard.removeAll(keepingCapacity: true)
            for connection in subscribers {
                if let environment = environments[connection] {
                    byEnvironment[environment, default: []].append(connection)
                } else if takingDeltas.contains(connection) {
                    deltas.append(connection)
                } else {
                    standard.append(connection)
                }
            }
        }
        if !deltas.isEmpty {
            sink.send(StateDelta(from: previous, to: session, cause: cause).message, to: deltas, coalescingKey: Self.stateKey(storyID), dependsOnPrevious: true)
        }
        if !standard.isEmpty, let state = liveStates.state(storyID) {
            sink.send(state.message(cause: cause), to: standard, coalescingKey: Self.stateKey(storyID))
        }
        for (environment, targets) in byEnvironment {
            sink.send(StateMessage(session, environment: environment).message(cause: cause), to: targets, coalescingKey: Self.stateKey(storyID))
        }
    }

    /// Ends a subscription; false when there was none.
    func unsubscribe(_ connection: ConnectionID, from storyID: String) -> Bool {
        assertOnQueue()
        guard subscriptions[connection]?.remove(storyID) != nil else { return false }
        subscribers[storyID]?.remove(connection)
        deltaSubscribers[storyID]?.remove(connection)
        return true
    }

    /// Forgets a closed connection.
    func disconnect(_ connection: ConnectionID) {
        assertOnQueue()
        environments[connection] = nil
        previewFields.unfocus(connection)
        for storyID in subscriptions.removeValue(forKey: connection) ?? [] {
            subscribers[storyID]?.remove(connection)
            deltaSubscribers[storyID]?.remove(connection)
        }
    }

    /// The environment a connection's states are rendered in.
    func environment(of connection: ConnectionID) -> ViewEnvironment {
        assertOnQueue()
        return environments[connection] ?? .standard
    }

    /// The live session of a story, when it has one (no session is made).
    func liveSession(_ storyID: String) -> StorySession? {
        assertOnQueue()
        return sessions[storyID]
    }

    /// Whether a connection is subscribed to a story.
    func isSubscribed(_ connection: ConnectionID, to storyID: String) -> Bool {
        assertOnQueue()
        return subscriptions[connection]?.contains(storyID) == true
    }

    /// The stories a connection is subscribed to.
    func stories(subscribedBy connection: ConnectionID) -> Set<String> {
        assertOnQueue()
        return subscriptions[connection] ?? []
    }

    /// The connections subscribed to a story.
    func subscribers(of storyID: String) -> [ConnectionID] {
        assertOnQueue()
        return Array(subscribers[storyID] ?? [])
    }

    /// Sends one message to every subscriber of a story; states replace queued older states.
    func broadcast(_ message: JSONValue, story storyID: String, coalesce: Bool = true) {
        broadcast(message.serializedBytes(), story: storyID, coalesce: coalesce)
    }

    /// Sends one serialized message to every subscriber of a story.
    func broadcast(_ message: [UInt8], story storyID: String, coalesce: Bool = true) {
        broadcast(message, story: storyID, coalescingKey: coalesce ? Self.stateKey(storyID) : nil)
    }

    /// Sends one serialized message to every subscriber of a story; a queued message with the same
    /// `coalescingKey` is replaced by it.
    func broadcast(_ message: [UInt8], story storyID: String, coalescingKey: String?) {
        assertOnQueue()
        let targets = subscribers(of: storyID)
        guard !targets.isEmpty else { return }
        sink.send(message, to: targets, coalescingKey: coalescingKey)
    }

    /// Sends a story's live state to one connection, replacing an older state still queued for it, and
    /// then the field it focuses for that version: a state sent this way (a subscription's, or one in
    /// place of a skipped delta) may not follow the version the connection was last told of.
    /// `withCause`: the state names the change that made its version (a subscription's first state
    /// does not).
    func sendState(of storyID: String, to connection: ConnectionID, withCause: Bool = false) {
        assertOnQueue()
        let cause = withCause ? sessions[storyID]?.history.entries.last.map(SerializedEntry.init) : nil
        if let environment = environments[connection], let session = sessions[storyID] {
            sink.send(StateMessage(session, environment: environment).message(cause: cause), to: [connection], coalescingKey: Self.stateKey(storyID))
        } else if let state = liveStates.state(storyID) {
            sink.send(state.message(cause: cause), to: [connection], coalescingKey: Self.stateKey(storyID))
        } else {
            return
        }
        if let session = sessions[storyID] { sendPreviewFields(of: session, to: connection) }
    }

    /// The coalescing key of a story's `state` messages.
    private static func stateKey(_ storyID: String) -> String { stateKeyPrefix + storyID }
    private static let stateKeyPrefix = "state:"

    /// A delta found a state still waiting for `connections` (slow readers) and was not sent, nor will
    /// their later deltas of the story be: each gets the whole live state, which replaces the waiting
    /// state (and its field).
    func deltaSkippedState(_ coalescingKey: String, for connections: [ConnectionID]) {
        assertOnQueue()
        guard coalescingKey.hasPrefix(Self.stateKeyPrefix) else { return }
        let storyID = String(coalescingKey.dropFirst(Self.stateKeyPrefix.count))
        for connection in connections where isSubscribed(connection, to: storyID) {
            sendState(of: storyID, to: connection, withCause: true)
        }
    }

    /// Sends one message to one connection.
    func send(_ message: JSONValue, to connection: ConnectionID, coalescingKey: String? = nil) {
        assertOnQueue()
        sink.send(message.serializedBytes(), to: [connection], coalescingKey: coalescingKey)
    }

    /// Sends one serialized message to several connections.
    func send(_ message: [UInt8], to connections: [ConnectionID], coalescingKey: String? = nil) {
        assertOnQueue()
        guard !connections.isEmpty else { return }
        sink.send(message, to: connections, coalescingKey: coalescingKey)
    }
}
