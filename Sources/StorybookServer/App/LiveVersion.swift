import PropsCatalog

/// What `state` messages and `GET /api/stories/{id}` say about one live version, before anything is
/// serialized: the props and projections are shared with the session, not copied.
struct LiveVersion: Sendable {
    let storyID: String
    let componentID: String
    let name: String
    let version: Int
    let canUndo: Bool
    let canRedo: Bool
    let environment: ViewEnvironment
    let props: JSONValue
    let projections: Projections

    /// The session's live version as rendered in `environment`.
    init(_ session: StorySession, environment: ViewEnvironment = .standard) {
        storyID = session.story.id
        componentID = session.story.component.id
        name = session.story.name
        version = session.version
        canUndo = session.canUndo
        canRedo = session.canRedo
        self.environment = environment
        props = session.props
        projections = session.projections(in: environment)
    }
}
