import Foundation
import Logging
import PropsCatalog
import StorybookTransport

/// The connected renderers, what each shows and what each last reported; and the WebSockets that
/// asked to hear when the list changes (`{"type": "renderers"}`).
///
/// Lives on the ``AppQueue`` beside the ``StoryHub`` it sends through. A renderer is named by the name
/// it announced: a new connection announcing a name already in use takes it over (the app restarted
/// or reconnected before the server noticed the old connection was gone).
final class RendererRegistry {
    /// One connected renderer.
    struct Renderer {
        let connection: ConnectionID
        let name: String
        let platform: String
        let components: [String]
        let connectedAt: Date
        /// The story a browser last asked it to show.
        var showing: String?
        /// The latest report per story, newest last in `order`.
        var reports: [String: RendererReport] = [:]
        var order: [String] = []
        var lastReport: RendererReport? { order.last.flatMap { reports[$0] } }
    }

    /// How many stories' reports a renderer keeps (the oldest reported story is forgotten first).
    static let storiesKept = 64

    private let hub: StoryHub
    private let logger: Logger
    private var renderers: [String: Renderer] = [:]
    private var names: [ConnectionID: String] = [:]
    /// The WebSockets that asked for the list: each gets it again when it changes.
    private var listeners: Set<ConnectionID> = []
    /// The renderer each browser last asked to show a story: it gets that renderer's reports (of the
    /// stories it subscribes to) and no other's, so renderers add nothing for the other viewers.
    private var watching: [ConnectionID: String] = [:]

    init(hub: StoryHub, logger: Logger) {
        self.hub = hub
        self.logger = logger
    }

    /// The renderers, sorted by name.
    var all: [Renderer] { renderers.values.sorted { $0.name < $1.name } }

    /// The renderer with this name, if connected.
    func renderer(named name: String) -> Renderer? {
        hub.assertOnQueue()
        return renderers[name]
    }

    /// Whether a connection is a renderer.
    func isRenderer(_ connection: ConnectionID) -> Bool {
        hub.assertOnQueue()
        return names[connection] != nil
    }

    /// A WebSocket closed: a renderer disappears from the list.
    func closed(_ connection: ConnectionID) {
        hub.assertOnQueue()
        listeners.remove(connection)
        watching[connection] = nil
        guard let name = names.removeValue(forKey: connection) else { return }
        renderers[name] = nil
        logger.info("renderer disconnected", metadata: ["sb.renderer": "\(name)", "sb.conn": "\(connection.raw)"])
        publishList()
    }

    /// Handles one renderer-protocol message.
    func handle(_ message: RendererMessage, from connection: ConnectionID) -> Result<Void, APIError> {
        hub.assertOnQueue()
        switch message {
        case .watch:
            listeners.insert(connection)
            hub.send(listMessage(), to: [connection], coalescingKey: Self.listKey)
            return .success(())
        case .announce(let name, let platform, let components):
            return announce(name: name, platform: platform, components: components, connection: connection)
        case .show(let renderer, let story, _):
            return show(story, on: renderer, by: connection)
        case .rendered(let content, let story, let version):
            return report(content, story: story, version: version, from: connection)
        }
    }

    /// Sends a new subscriber of a story the latest report about it of the renderer it watches.
    func sendReports(of story: String, to connection: ConnectionID) {
        hub.assertOnQueue()
        guard !isRenderer(connection), let name = watching[connection], let report = renderers[name]?.reports[story] else { return }
        hub.send(report.message(renderer: name), to: connection, coalescingKey: Self.reportKey(name, story))
    }

    private func announce(name: String, platform: String, components: [String], connection: ConnectionID) -> Result<Void, APIError> {
        if let current = names[connection] {
            return .failure(APIError(.conflict, "this connection is already the renderer '\(current)'", path: "/name"))
        }
        if let unknown = components.first(where: { hub.catalog.component(id: $0) == nil }) {
            return .failure(APIError(.notFound, "unknown component '\(unknown)': components lists ids from /api/index.json", path: "/components"))
        }
        if let previous = renderers[name] {
            names[previous.connection] = nil
            if let story = previous.showing { _ = hub.unsubscribe(previous.connection, from: story) }
            hub.send(["type": "error", "code": "conflict", "message": .string("the renderer name '\(name)' was taken over by a newer connection")],
                     to: previous.connection)
            logger.info("renderer taken over", metadata: ["sb.renderer": "\(name)", "sb.conn": "\(previous.connection.raw)"])
        }
        renderers[name] = Renderer(connection: connection, name: name, platform: platform, components: components, connectedAt: Date())
        names[connection] = name
        logger.info("renderer connected", metadata: ["sb.renderer": "\(name)", "sb.platform": "\(platform)", "sb.conn": "\(connection.raw)"])
        hub.send(["type": "renderer-accepted", "name": .string(name)], to: connection)
        publishList()
        return .success(())
    }

    private func show(_ story: String, on name: String, by connection: ConnectionID) -> Result<Void, APIError> {
        guard var renderer = renderers[name] else {
            let connected = all.map(\.name).joined(separator: ", ")
            return .failure(APIError(.notFound, "no renderer named '\(name)' is connected" + (connected.isEmpty ? "" : " (connected: \(connected))"), path: "/renderer"))
        }
        let session: StorySession
        switch hub.session(story) {
        case .success(let value): session = value
        case .failure(let error): return .failure(error)
        }
        let component = session.story.component.id
        guard renderer.components.contains(component) else {
            return .failure(APIError(.notFound, "the renderer '\(name)' does not render the component '\(component)' (it renders: \(renderer.components.joined(separator: ", ")))", path: "/story"))
        }
        watching[connection] = name
        if renderer.showing == story {
            // Already showing it: the asker gets the latest report, the renderer nothing new.
            sendReports(of: story, to: connection)
            return .success(())
        }
        if let previous = renderer.showing {
            _ = hub.unsubscribe(renderer.connection, from: previous)
        }
        renderer.showing = story
        renderers[name] = renderer
        hub.send(["type": "show", "story": .string(story), "component": .string(component),
                  "source": .string(ChangeSource.webSocket(connection.raw).description)], to: renderer.connection)
        _ = hub.subscribe(renderer.connection, to: story)
        hub.sendState(of: story, to: renderer.connection)
        sendReports(of: story, to: connection)  // what it drew of this story before, if anything
        publishList()
        return .success(())
    }

    private func report(_ content: RendererReport.Content, story: String, version: Int, from connection: ConnectionID) -> Result<Void, APIError> {
        guard let name = names[connection], var renderer = renderers[name] else {
            return .failure(APIError(.badMessage, "only a renderer reports renders: announce this connection with {\"type\": \"renderer\", ...} first", path: "/type"))
        }
        let session: StorySession
        switch hub.session(story) {
        case .success(let value): session = value
        case .failure(let error): return .failure(error)
        }
        guard renderer.components.contains(session.story.component.id) else {
            return .failure(APIError(.badMessage, "the renderer '\(name)' did not announce the component '\(session.story.component.id)'", path: "/story"))
        }
        guard (1...session.version).contains(version) else {
            return .failure(APIError(.badMessage, "version \(version) is not a version of '\(story)' (the live version is \(session.version))", path: "/version"))
        }
        if let previous = renderer.reports[story], previous.version > version {
            return .failure(APIError(.conflict, "a report of version \(previous.version) of '\(story)' was already made; reports go forward", path: "/version"))
        }
        let report = RendererReport(story: story, version: version, content: content, at: Date())
        renderer.reports[story] = report
        renderer.order.removeAll { $0 == story }
        renderer.order.append(story)
        if renderer.order.count > Self.storiesKept {
            renderer.reports[renderer.order.removeFirst()] = nil
        }
        renderers[name] = renderer
        let viewers = hub.subscribers(of: story).filter { watching[$0] == name && !isRenderer($0) }
        hub.send(report.message(renderer: name).serializedBytes(), to: viewers, coalescingKey: Self.reportKey(name, story))
        return .success(())
    }

    /// `{"type": "renderers", "renderers": [{"name", "platform", "components", "connectedAt", "showing"}]}`
    func listMessage() -> [UInt8] {
        hub.assertOnQueue()
        return JSONValue.object(["type": "renderers", "renderers": .array(all.map { Self.entry($0, lastReport: false) })]).serializedBytes()
    }

    /// `GET /api/renderers`: the list with each renderer's last report.
    var resource: JSONValue {
        .object(["renderers": .array(all.map { Self.entry($0, lastReport: true) })])
    }

    private static func entry(_ renderer: Renderer, lastReport: Bool) -> JSONValue {
        var members: [String: JSONValue] = [
            "name": .string(renderer.name), "platform": .string(renderer.platform),
            "components": .array(renderer.components.map(JSONValue.string)),
            "connectedAt": .string(ISO8601.string(from: renderer.connectedAt)),
            "showing": renderer.showing.map(JSONValue.string) ?? .null,
        ]
        if lastReport {
            members["lastReport"] = renderer.lastReport?.summary(renderer: renderer.name) ?? .null
        }
        return .object(members)
    }

    private func publishList() {
        hub.send(listMessage(), to: Array(listeners), coalescingKey: Self.listKey)
    }

    private static let listKey = "renderers"
    private static func reportKey(_ renderer: String, _ story: String) -> String { "rendered:\(renderer):\(story)" }
}
