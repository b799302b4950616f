package import PropsCatalog

/// The projections of a story's registered variant, exactly as `/render/{id}.txt|.html`,
/// `storybook render` and `storybook export` give them.
package struct RenderedStory: Sendable {
    /// The name under which the preview's stylesheet is served (`/preview.css`) and exported.
    package static let previewStylesheetName = "preview.css"

    package let text: String
    package let fragment: String
    /// "Title / Variant", the document's title.
    package let title: String
    package let document: String

    package init(_ story: Catalog.Story) throws {
        let view = try story.registeredView().get()
        self.init(view: view, title: "\(story.component.title) / \(story.name)")
    }

    package init(view: [ViewNode], title: String) {
        self.title = title
        let projections = Projections(view)
        text = projections.text
        fragment = projections.html
        document = HTMLProjection.document(fragment: projections.html, title: title)  // the fragment, rendered once
    }
}
