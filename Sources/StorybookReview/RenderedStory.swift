package import PropsCatalog

/// The projections of a story's registered variant, exactly as `/render/{id}.txt|.a11y.txt|.html`,
/// `storybook render` and `storybook export` give them, in one environment.
package struct RenderedStory: Sendable {
    /// The name under which the preview's stylesheet is served (`/preview.css`) and exported.
    package static let previewStylesheetName = "preview.css"

    package let text: String
    package let fragment: String
    /// The accessibility outline.
    package let accessibility: String
    /// The audit's findings at the component's level.
    package let findings: [AuditFinding]
    /// "Title / Variant", the document's title.
    package let title: String
    package let document: String
    package let environment: ViewEnvironment
    /// The view, to tell whether another environment renders the same.
    package let view: [ViewNode]

    package init(_ story: Catalog.Story, environment: ViewEnvironment = .standard) throws {
        let view = try story.registeredView(in: environment).get()
        self.init(view: view, title: "\(story.component.title) / \(story.name)", auditLevel: story.component.auditLevel, environment: environment)
    }

    package init(view: [ViewNode], title: String, auditLevel: AuditLevel = .error, environment: ViewEnvironment = .standard) {
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
    package func body(_ format: ProjectionFormat) -> String {
        switch format {
        case .text: text
        case .html: document
        case .a11y: accessibility
        }
    }
}
