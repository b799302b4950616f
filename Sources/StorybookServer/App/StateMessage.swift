import PropsCatalog

/// The JSON forms of one live version of a story, for HTTP answers and WebSocket `state` messages.
///
/// The props and both projections are serialized once, when the version becomes live, and spliced
/// into every message and answer about it. Members are written in sorted key order, so the bytes are
/// those of the equivalent `JSONValue`.
struct StateMessage {
    let storyID: String
    private let componentID: String
    private let name: String
    let version: Int
    private let canUndo: Bool
    private let canRedo: Bool
    /// `{"locale": "de-DE", ...}` in `state` messages rendered in another environment than the default.
    private let environment: [UInt8]?
    private let props: [UInt8]
    private let text: [UInt8]
    private let html: [UInt8]

    /// The live version as rendered in `environment` (the session's own projections in the default one).
    init(_ session: StorySession, environment: ViewEnvironment = .standard) {
        self.init(LiveVersion(session, environment: environment))
    }

    /// Serializes a live version's props and projections.
    init(_ live: LiveVersion) {
        storyID = live.storyID
        componentID = live.componentID
        name = live.name
        version = live.version
        canUndo = live.canUndo
        canRedo = live.canRedo
        environment = live.environment.isStandard ? nil : Self.environment(live.environment)
        props = live.props.serializedBytes()
        text = JSONValue.serializedString(live.projections.text)
        html = JSONValue.serializedString(live.projections.html)
    }

    private var size: Int { props.count + text.count + html.count + 256 }

    /// `GET /api/stories/{id}`: `{"id", "component", "name", "version", "props", "text", "html", ...}`.
    var resource: [UInt8] {
        var writer = JSONObjectWriter(capacity: size)
        writer.member("canRedo", bool: canRedo)
        writer.member("canUndo", bool: canUndo)
        writer.member("component", string: componentID)
        writer.member("html", json: html)
        writer.member("id", string: storyID)
        writer.member("name", string: name)
        writer.member("props", json: props)
        writer.member("text", json: text)
        writer.member("version", integer: version)
        return writer.finish()
    }

    /// The WebSocket `state` message; `cause` names the change that made this version.
    func message(cause: SerializedEntry?) -> [UInt8] {
        var writer = JSONObjectWriter(capacity: size)
        writer.member("canRedo", bool: canRedo)
        writer.member("canUndo", bool: canUndo)
        if let cause {
            writer.member("cause", json: cause.cause)
        }
        if let environment { writer.member("environment", json: environment) }
        writer.member("html", json: html)
        writer.member("props", json: props)
        writer.member("story", string: storyID)
        writer.member("text", json: text)
        writer.member("type", string: "state")
        writer.member("version", integer: version)
        return writer.finish()
    }

    /// The environment's parameters that differ from the default, as `subscribe` takes them.
    private static func environment(_ environment: ViewEnvironment) -> [UInt8] {
        var writer = JSONObjectWriter(capacity: 96)
        for (name, value) in environment.parameters.sorted(by: { $0.name < $1.name }) {
            writer.member(named: name, string: value)
        }
        return writer.finish()
    }
}
