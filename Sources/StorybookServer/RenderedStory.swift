import PropsCatalog

/// The projections of a story's registered variant, exactly as `/render/{id}.txt|.a11y.txt|.html`,
/// `storybook render` and `storybook export` give them, in one environment.
struct RenderedStory: Sendable {
    let text: String
    let fragment: String
    /// The accessibility outline.
    let accessibility: String
    /// The audit's findings at the component's level.
    let findings: [AuditFinding]
    /// "Title / Variant", the document's title.
    let title: String
    let document: String
    let environment: ViewEnvironment
    /// The view, to tell whether another environment renders the same.
    let view: [ViewNode]

    init(_ story: Catalog.Story, environment: ViewEnvironment = .standard) throws {
        let view = try story.registeredView(in: environment).get()
        self.init(view: view, title: "\(story.component.title) / \(story.name)", auditLevel: story.component.auditLevel, environment: environment)
    }

    init(view: [ViewNode], title: String, auditLevel: AuditLevel = .error, environment: ViewEnvironment = .standard) {
        self.title = title
        self.view = view
        self.environment = environment
        let projections = Projections(view)
        text = projections.text
        fragment = projections.html
        accessibility = projections.accessibility
        findings = auditLevel.applied(to: projections.findings)
        document = HTMLProjection.document(fragment: projections.html, title: title, environment: environment)  // the fragment, rendered once
    }

    /// The bytes of one projection.
    func body(_ format: ProjectionFormat) -> String {
        switch format {
        case .text: text
        case .html: document
        case .a11y: accessibility
        }
    }
}
