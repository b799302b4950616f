import PropsCatalog

/// The projections of a story's registered variant, exactly as `/render/{id}.txt|.html`,
/// `storybook render` and `storybook export` give them.
struct RenderedStory: Sendable {
    let text: String
    let fragment: String
    /// "Title / Variant", the document's title.
    let title: String
    let document: String

    init(_ story: Catalog.Story) throws {
        let view = try story.registeredView().get()
        self.init(view: view, title: "\(story.component.title) / \(story.name)")
    }

    init(view: [ViewNode], title: String) {
        self.title = title
        let projections = Projections(view)
        text = projections.text
        fragment = projections.html
        document = HTMLProjection.document(fragment: projections.html, title: title)  // the fragment, rendered once
    }
}
