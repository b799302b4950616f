import Dispatch
public import Foundation
public import PropsCatalog
import Synchronization

/// Connects an app to a storybook server as a *renderer*: the browser picks a story, the app gets
/// its Props, typed, every time they change; the app's commands go back through the same path as
/// every edit. See docs/client.md.
///
/// ```swift
/// let client = StorybookClient(.init(url: URL(string: "ws://127.0.0.1:6006/ws")!, name: "iPhone 16", platform: "iOS 26"))
/// client.follow(loginComponent) { state in
///     show(state.props)                        // typed LoginProps
///     client.report(state, text: "rendered")   // optional: what the browser shows beside its preview
/// }
/// client.start()
/// client.dispatch("login")                     // a button tapped in the app
/// ```
///
/// Nothing here blocks the caller: work runs on the client's own serial queue, where handlers are
/// called too (hop to the main actor yourself for UI). It reconnects with exponential backoff after
/// any disconnection, announces itself again and shows the story it was showing.
///
/// Transport: libwebsockets' client mode on Linux (built and tested there); `URLSessionWebSocketTask`
/// on Apple platforms (compiled only there; not built or tested on this project's Linux machines).
public final class StorybookClient: Sendable {
    /// Where to connect and how to present itself.
    public struct Configuration: Sendable {
        /// The server's WebSocket, `ws://host:port/ws`.
        public var url: URL
        /// The renderer's name in the browser's picker ("iPhone 16 Pro").
        public var name: String
        /// What it runs on ("iOS 26", "Linux (headless)").
        public var platform: String
        /// The server's access token, when it needs one (sent as `?token=`).
        public var token: String?
        /// The first reconnection delay; it doubles after each failure up to ``maximumBackoff``.
        public var minimumBackoff: Duration = .milliseconds(100)
        /// The longest reconnection delay.
        public var maximumBackoff: Duration = .seconds(5)

        /// A configuration for the server at `url` (`ws://127.0.0.1:6006/ws`), announcing `name` on `platform`.
        public init(url: URL, name: String, platform: String, token: String? = nil) {
            self.url = url
            self.name = name
            self.platform = platform
            self.token = token
        }
    }

    /// The client's connection to the server.
    public enum Status: Sendable, Equatable {
        case idle, connecting, connected
        /// Disconnected; the next attempt is scheduled.
        case waiting(reason: String)
        case stopped
    }

    let configuration: Configuration
    let queue = DispatchQueue(label: "storybook.client")
    let state = Mutex(ClientState())
    private let connection: any ClientConnection

    /// A client that connects once `start()` is called.
    public init(_ configuration: Configuration) {
        self.configuration = configuration
        let queue = self.queue
        let box = WeakClient()
        connection = makeConnection(configuration: configuration) { event in
            queue.async { box.client?.handle(event) }
        }
        box.client = self
    }

    /// The connection status, for a status line.
    public var status: Status { state.withLock { $0.status } }

    /// The story the browser last asked this renderer to show, if any.
    public var showing: String? { state.withLock { $0.showing } }

    /// Calls `handler` on the client's queue with the typed Props of every state of a story of
    /// `component` this renderer is asked to show. Props that do not decode into `Props` are reported to
    /// the server as a render error instead (the app's types differ from the server's). Register every
    /// component before ``start()``: the renderer announces the components it follows when it connects.
    public func follow<Props>(_ component: Component<Props>, _ handler: @escaping @Sendable (RendererState<Props>) -> Void) {
        let id = Slug.make(component.title)
        let follower = Follower(componentID: id) { [weak self] update in
            do throws(PropsError) {
                let props = try PropsDecoding.decode(Props.self, from: update.props)
                handler(RendererState(story: update.story, component: update.component, version: update.version, props: props))
            } catch {
                self?.report(story: update.story, version: update.version, error: "the props do not decode into \(Props.self): \(error)")
            }
        }
        state.withLock { $0.followers[id] = follower }
    }

    /// The states of `component`'s stories, as an async sequence (the same values ``follow(_:_:)`` hands over).
    public func states<Props>(of component: Component<Props>) -> AsyncStream<RendererState<Props>> {
        let (stream, continuation) = AsyncStream.makeStream(of: RendererState<Props>.self, bufferingPolicy: .bufferingNewest(16))
        follow(component) { continuation.yield($0) }
        return stream
    }

    /// Connects, and keeps reconnecting until ``stop()``. Returns at once.
    public func start() {
        queue.async { [self] in
            guard state.withLock({ $0.status == .idle }) else { return }
            state.withLock { $0.status = .connecting }
            connection.start()
            connection.connect(to: endpoint)
        }
    }

    /// Disconnects for good. Returns at once; the connection closes shortly after.
    public func stop() {
        queue.async { [self] in
            state.withLock { $0.status = .stopped }
            connection.stop()
        }
    }

    /// Sends a command of the story being shown (a button tapped in the app): logged as an action for
    /// every viewer; when the component suggests new Props for it, they become the story's next version.
    /// Dropped when no story is shown or the client is not connected.
    public func dispatch(_ command: Command, payload: JSONValue? = nil) {
        queue.async { [self] in
            guard let story = state.withLock({ $0.showing }) else { return }
            var message: [String: JSONValue] = ["type": "dispatch", "story": .string(story), "command": .string(command.name)]
            if let payload { message["payload"] = payload }
            send(.object(message))
        }
    }

    /// Sends a typed command of the story being shown (a value of the component's command type).
    public func dispatch<Typed: CommandRepresentable>(_ command: Typed, payload: JSONValue? = nil) {
        dispatch(command.command, payload: payload)
    }

    /// Reports what the app made of one state: an image (PNG bytes), a text, or why it failed.
    public func report<Props>(_ state: RendererState<Props>, image: Data? = nil, text: String? = nil, error: String? = nil) {
        report(story: state.story, version: state.version, image: image, text: text, error: error)
    }

    /// Reports a render of `version` of `story`.
    ///
    /// A report larger than the server's message limit (its `--max-message-bytes`, 1 MiB by default, which
    /// a device's screenshot can pass) is sent without the image, with an `error` saying so, and `text` if
    /// given: the browser shows why there is no image instead of the connection being closed.
    public func report(story: String, version: Int, image: Data? = nil, text: String? = nil, error: String? = nil) {
        let report = RenderReport(story: story, version: version, image: image, text: text, error: error)
        queue.async { [self] in
            connection.send(report.encoded(within: state.withLock { $0.serverMessageLimit }))
        }
    }

    // MARK: on the queue

    private var endpoint: URL {
        guard let token = configuration.token, var parts = URLComponents(url: configuration.url, resolvingAgainstBaseURL: false) else {
            return configuration.url
        }
        parts.queryItems = (parts.queryItems ?? []) + [URLQueryItem(name: "token", value: token)]
        return parts.url ?? configuration.url
    }

    func send(_ message: JSONValue) {
        connection.send(message.serializedBytes())
    }

    private func handle(_ event: ConnectionEvent) {
        dispatchPrecondition(condition: .onQueue(queue))
        switch event {
        case .opened:
            state.withLock { state in
                state.status = .connected
                state.failures = 0
                state.serverMessageLimit = nil  // until this connection's hello says
            }
            let components = state.withLock { $0.followers.keys.sorted() }
            send(["type": "renderer", "name": .string(configuration.name), "platform": .string(configuration.platform),
                  "components": .array(components.map(JSONValue.string))])
        case .message(let bytes):
            guard let message = try? JSONParser.parse(bytes) else { return }
            receive(message)
        case .closed(let reason):
            let delay: Duration? = state.withLock { state in
                guard state.status != .stopped else { return nil }
                state.status = .waiting(reason: reason)
                state.failures += 1
                return Backoff.delay(after: state.failures, minimum: configuration.minimumBackoff, maximum: configuration.maximumBackoff)
            }
            guard let delay else { return }
            queue.asyncAfter(deadline: .now() + .nanoseconds(Int(delay / .nanoseconds(1)))) { [weak self] in
                guard let self, case .waiting = self.state.withLock({ $0.status }) else { return }
                self.state.withLock { $0.status = .connecting }
                self.connection.connect(to: self.endpoint)
            }
        }
    }

    private func receive(_ message: JSONValue) {
        switch message["type"]?.stringValue {
        case "hello":
            let limit = message["maxMessageBytes"]?.integerValue.flatMap { Int(exactly: $0) }
            state.withLock { $0.serverMessageLimit = limit }
        case "renderer-accepted":
            // Resubscribe: after a reconnection, show again what was shown.
            if let story = state.withLock({ $0.showing }) {
                send(["type": "show", "renderer": .string(configuration.name), "story": .string(story)])
            }
        case "show":
            if let story = message["story"]?.stringValue {
                state.withLock { $0.showing = story }
            }
        case "state":
            guard let story = message["story"]?.stringValue, let version = message["version"]?.integerValue,
                  let props = message["props"] else { return }
            let (shown, followers) = state.withLock { ($0.showing, $0.followers) }
            guard story == shown, let component = Self.componentID(ofStory: story, among: followers.keys) else { return }
            followers[component]?.deliver(StateUpdate(story: story, component: component, version: Int(version), props: props))
        default:
            break  // renderers, actions, errors: nothing to do for a renderer
        }
    }

    /// The followed component a story id belongs to (story ids are `<component-id>--<variant>`).
    static func componentID(ofStory story: String, among components: some Sequence<String>) -> String? {
        components.filter { story.hasPrefix($0 + "--") }.max { $0.count < $1.count }
    }
}

/// Breaks the reference cycle between the client and its connection's event handler.
private final class WeakClient: @unchecked Sendable {
    // @unchecked: `client` is written once in `StorybookClient.init`, before any event can arrive
    // (the connection starts only in `start()`), and only read afterwards.
    weak var client: StorybookClient?
}
