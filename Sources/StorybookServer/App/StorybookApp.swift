import Dispatch
import Foundation
import Logging
import PropsCatalog
import StorybookTransport

/// The application behind the transport: receives requests and messages on the event loop
/// thread and hands them to one serial queue, where every story edit, render and broadcast runs.
/// The loop thread itself only answers from ready-made memory (cached projections, health).
final class StorybookApp: TransportDelegate, @unchecked Sendable {
    // @unchecked: `hub`, `router` and `webSocket` are touched only on `queue` (the hub checks it);
    // the rest is immutable.
    let queue: AppQueue
    private let hub: StoryHub
    private let router: HTTPRouter
    private let webSocket: WebSocketHandler
    private let renders: RenderCache
    private let immediateAnswers: ImmediateResponder
    private let access: AccessPolicy
    private let logger: Logger

    init(catalog registered: Catalog, configuration: ServerConfiguration, sink: any MessageSink, logger: Logger) throws {
        let queue = AppQueue()
        self.queue = queue
        self.logger = logger
        var catalog = registered
        var unloadable: [VariantStore.Unloadable] = []
        let variants = configuration.variantsDirectory.map { VariantStore(directory: $0, logger: logger) }
        if let variants {
            (catalog, unloadable) = variants.load(into: registered)
        }
        for component in catalog.components {
            for story in component.leftOut {
                logger.warning("generated story left out", metadata: [
                    "sb.component": "\(component.id)", "sb.story": "\(story.name)",
                    "sb.reason": "\(story.path.map { "\($0): " } ?? "")\(story.message)",
                ])
            }
        }
        let hub = StoryHub(catalog: catalog, sink: sink, logger: logger)
        hub.variants = variants
        hub.sizeLimit = JSONSizeLimit(messageBytes: max(configuration.maxMessageBytes, configuration.maxBodyBytes),
                                      depth: configuration.maxJSONDepth)
        hub.unloadable = unloadable
        if let stateDirectory = configuration.stateDirectory {
            let compactions = DispatchQueue(label: "storybook.journal-compaction", qos: .utility)
            let scheduling = JournalScheduling(background: { compactions.async(execute: $0) }, onQueue: { queue.async($0) })
            let (journal, restored) = try Journal.open(directory: stateDirectory, catalog: catalog, logger: logger, scheduling: scheduling)
            hub.journal = journal
            hub.install(restored)
        }
        hub.owner = queue  // set up; from now on the hub lives on the app queue
        let renders = RenderCache(catalog: catalog, unloadable: unloadable)
        let access = AccessPolicy(token: configuration.token, allowedOrigins: configuration.allowedOrigins,
                                  allowedHosts: configuration.allowedHosts, listeningHost: configuration.host)
        self.hub = hub
        self.immediateAnswers = ImmediateResponder(renders: renders, liveStates: hub.liveStates, access: access)
        self.renders = renders
        self.access = access
        let renderers = RendererRegistry(hub: hub, logger: logger)
        let replays = ReplayController(hub: hub) { delay, work in
            queue.asyncAfter(delay, work)
        }
        let presence = PresenceBoard(hub: hub) { delay, work in
            queue.asyncAfter(delay, work)
        }
        let mcp = MCPEndpoint(
            tools: MCPTools(hub: hub, renders: renders, presence: presence, snapshotsDirectory: configuration.snapshotsDirectory?.path),
            resources: MCPResources(hub: hub, presence: presence), presence: presence, maxJSONDepth: configuration.maxJSONDepth)
        self.router = HTTPRouter(
            hub: hub, replays: replays,
            review: ReviewSettings(snapshotsDirectory: configuration.snapshotsDirectory?.path, allowRecord: configuration.allowRecord),
            renders: renders, staticFiles: StaticFiles(directory: configuration.publicDirectory),
            access: access, maxJSONDepth: configuration.maxJSONDepth, mcp: mcp, renderers: renderers)
        self.webSocket = WebSocketHandler(hub: hub, replays: replays, presence: presence, renderers: renderers,
                                          maxJSONDepth: configuration.maxJSONDepth, maxMessageBytes: configuration.maxMessageBytes,
                                          review: configuration.snapshotsDirectory != nil, logger: logger)
    }

    /// Renders every registered projection in the background so requests find them ready.
    func warmUp() {
        DispatchQueue.global(qos: .utility).async { [renders] in renders.warmUp() }
    }

    /// Tells the access rules the port the transport bound: a browser's own origin names it.
    func listening(on port: Int) {
        access.port.set(port)
    }

    /// Waits for queued work and closes the journal.
    func close() {
        queue.sync { hub.journal?.close() }
    }

    // MARK: TransportDelegate (called on the event loop thread: hand over and return)

    func transport(_ transport: Transport, didReceive request: HTTPRequest, id: ConnectionID) {
        logger.debug("request", metadata: ["sb.method": "\(request.method.rawValue)", "sb.path": "\(request.path)"])
        queue.async {
            // Read-only work that may take long gets the values it reads here and runs elsewhere.
            if let work = self.router.readOnlyWork(for: request) {
                self.queue.readOnlyWork.async { transport.respond(to: id, with: work()) }
            } else {
                transport.respond(to: id, with: self.router.route(request))
            }
        }
    }

    func transport(_ transport: Transport, shouldAccept upgrade: UpgradeRequest) -> UpgradeDecision {
        if let refusal = access.refusal(upgrade) {
            logger.warning("WebSocket refused: \(refusal.message)")
            return .reject(status: refusal.httpStatus, body: HTTPResponse.error(refusal).body)
        }
        return .accept
    }

    func transport(_ transport: Transport, didOpen id: ConnectionID, upgrade: UpgradeRequest) {
        queue.async { self.webSocket.opened(id) }
    }

    func transport(_ transport: Transport, didReceiveMessage bytes: [UInt8], from id: ConnectionID) {
        queue.async { self.webSocket.received(bytes, from: id) }
    }

    func transport(_ transport: Transport, didSkipMessageBefore coalescingKey: String, for ids: [ConnectionID]) {
        queue.async { self.hub.deltaSkippedState(coalescingKey, for: ids) }
    }

    func transport(_ transport: Transport, didClose id: ConnectionID) {
        queue.async { self.webSocket.closed(id) }
    }

    /// Answers that need no work, given on the loop thread: the health check, a live story's state and
    /// a projection already in memory.
    func transport(_ transport: Transport, immediateResponseTo request: RequestHead) -> PreparedResponse? {
        immediateAnswers.response(to: request)
    }
}
