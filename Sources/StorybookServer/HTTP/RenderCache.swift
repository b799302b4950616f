import PropsCatalog
import Synchronization
import StorybookReview

/// The projections of every registered variant, rendered once and kept in memory with strong
/// ETags: what `/render/{id}.txt|.html` answers and CI reviews.
final class RenderCache: Sendable {
    /// A class, so that handing an entry out of the cache is one retain rather than one per field.
    final class Entry: Sendable {
        /// The text projection with its ETag, and its 200 and 304 ready for the loop thread.
        let textAnswer: CachedAnswer
        /// The HTML fragment and the document's title: the standalone document is built from them
        /// when asked for, so a large catalog does not keep a copy of the stylesheet per story.
        let fragment: String
        let title: String
        let documentETag: String
        /// The accessibility outline with its ETag, prepared like the text.
        let accessibilityAnswer: CachedAnswer

        init(textAnswer: CachedAnswer, fragment: String, title: String, documentETag: String, accessibilityAnswer: CachedAnswer) {
            self.textAnswer = textAnswer
            self.fragment = fragment
            self.title = title
            self.documentETag = documentETag
            self.accessibilityAnswer = accessibilityAnswer
        }

        /// The standalone document `/render/{id}.html` serves.
        var document: [UInt8] { Array(HTMLProjection.document(fragment: fragment, title: title).utf8) }

        /// The text projection `/render/{id}.txt` serves.
        var text: [UInt8] { textAnswer.body }

        var textETag: String { textAnswer.etag }
    }

    /// A serialized body and its strong ETag.
    struct Body: Sendable {
        let bytes: [UInt8]
        let etag: String
    }

    /// What changes when a variant is saved while serving: the catalog, its index and listings.
    private struct State: Sendable {
        var catalog: Catalog
        var index: Body
        var listings: [ProjectionFormat: Body] = [:]
        var overviews: [String: Body] = [:]
    }

    private let state: Mutex<State>
    private let entries = Mutex(StoryTable<Entry>())

    init(catalog: Catalog, unloadable: [VariantStore.Unloadable] = []) {
        state = Mutex(State(catalog: catalog, index: Self.indexBody(catalog, unloadable: unloadable)))
    }

    /// The catalog whose stories are rendered.
    var catalog: Catalog { state.withLock { $0.catalog } }

    /// The serialized `/api/index.json` and its ETag, built once per catalog.
    var index: Body { state.withLock { $0.index } }

    /// Serves `catalog` from now on (a variant was saved); entries of existing stories stay valid.
    func update(_ catalog: Catalog, unloadable: [VariantStore.Unloadable]) {
        let index = Self.indexBody(catalog, unloadable: unloadable)
        state.withLock { $0 = State(catalog: catalog, index: index) }
    }

    /// The index of the contract, with the saved variants that cannot be loaded listed per component.
    private static func indexBody(_ catalog: Catalog, unloadable: [VariantStore.Unloadable]) -> Body {
        var index = catalog.index
        if !unloadable.isEmpty, case .object(var members) = index, case .array(let components)? = members["components"] {
            members["components"] = .array(components.map { component in
                let broken = unloadable.filter { .string($0.component) == component["id"] }
                guard !broken.isEmpty, case .object(var fields) = component else { return component }
                fields["unloadable"] = .array(broken.map(\.json))
                return .object(fields)
            })
            index = .object(members)
        }
        let bytes = index.serializedBytes()
        return Body(bytes: bytes, etag: ContentHash.etag(bytes))
    }

    /// The entry of a story if it was already rendered: cheap, safe on the event loop thread.
    func cached(_ storyID: String) -> Entry? {
        entries.withLock { $0[id: storyID] }
    }

    /// ``cached(_:)`` by the UTF-8 bytes of the id (the loop thread reads it out of the path).
    func cached(utf8 storyID: UnsafeBufferPointer<UInt8>) -> Entry? {
        entries.withLock { $0[utf8: storyID] }
    }

    /// The entry of a story, rendering it the first time; nil for unknown stories.
    func entry(_ storyID: String) -> Entry? {
        if let entry = cached(storyID) { return entry }
        guard let story = catalog.story(id: storyID), let rendered = try? RenderedStory(story) else { return nil }
        let entry = Self.entry(rendered)
        entries.withLock { $0[id: storyID] = entry }
        return entry
    }

    /// The `GET /api/projections?format=` body of every story, built from the entries the first
    /// time it is asked for and kept: the registered projections never change while serving.
    func listing(_ format: ProjectionFormat) -> Body {
        if let listing = state.withLock({ $0.listings[format] }) { return listing }
        let catalog = self.catalog
        let bytes = Self.listingJSON(format, entries: catalog.stories.compactMap { story in entry(story.id).map { (story.id, $0) } })
            .serializedBytes()
        let listing = Body(bytes: bytes, etag: ContentHash.etag(bytes))
        return state.withLock { state in
            guard state.catalog.stories.count == catalog.stories.count else { return listing }
            if let earlier = state.listings[format] { return earlier }
            state.listings[format] = listing
            return listing
        }
    }

    /// The `GET /api/components/{id}/overview` body, built the first time it is asked for and kept
    /// until the catalog changes; nil for an unknown component.
    func overview(_ componentID: String) -> Body? {
        let (cached, catalog) = state.withLock { ($0.overviews[componentID], $0.catalog) }
        if let cached { return cached }
        guard let component = catalog.component(id: componentID) else { return nil }
        let bytes = component.overview().serializedBytes()
        let body = Body(bytes: bytes, etag: ContentHash.etag(bytes))
        state.withLock { state in
            if state.catalog.stories.count == catalog.stories.count { state.overviews[componentID] = body }
        }
        return body
    }

    /// Renders every story now, so that requests never wait for it.
    func warmUp() {
        for story in catalog.stories { _ = entry(story.id) }
    }

    static func entry(_ rendered: RenderedStory) -> Entry {
        let text = Array(rendered.text.utf8)
        let outline = Array(rendered.accessibility.utf8)
        return Entry(textAnswer: CachedAnswer(text, contentType: ProjectionFormat.text.contentType, etag: ContentHash.etag(text)),
                     fragment: rendered.fragment, title: rendered.title, documentETag: ContentHash.etag(rendered.document.utf8),
                     accessibilityAnswer: CachedAnswer(outline, contentType: ProjectionFormat.a11y.contentType, etag: ContentHash.etag(outline)))
    }
}
