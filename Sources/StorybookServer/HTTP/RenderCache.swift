import PropsCatalog
import Synchronization

/// The projections of every registered variant, rendered once and kept in memory with strong
/// ETags: what `/render/{id}.txt|.html` answers and CI reviews.
final class RenderCache: Sendable {
    struct Entry: Sendable {
        let text: [UInt8]
        let textETag: String
        let document: [UInt8]
        let documentETag: String
        let fragment: String
    }

    private let catalog: Catalog
    private let entries = Mutex<[String: Entry]>([:])
    /// The serialized `/api/index.json` and its ETag: the catalog never changes while serving.
    let index: (bytes: [UInt8], etag: String)

    init(catalog: Catalog) {
        self.catalog = catalog
        let bytes = catalog.index.serializedBytes()
        index = (bytes, ContentHash.etag(bytes))
    }

    /// The entry of a story if it was already rendered: cheap, safe on the event loop thread.
    func cached(_ storyID: String) -> Entry? {
        entries.withLock { $0[storyID] }
    }

    /// The entry of a story, rendering it the first time; nil for unknown stories.
    func entry(_ storyID: String) -> Entry? {
        if let entry = cached(storyID) { return entry }
        guard let story = catalog.story(id: storyID), let rendered = try? RenderedStory(story) else { return nil }
        let entry = Self.entry(rendered)
        entries.withLock { $0[storyID] = entry }
        return entry
    }

    /// Renders every story now, so that requests never wait for it.
    func warmUp() {
        for story in catalog.stories { _ = entry(story.id) }
    }

    static func entry(_ rendered: RenderedStory) -> Entry {
        let text = Array(rendered.text.utf8)
        let document = Array(rendered.document.utf8)
        return Entry(text: text, textETag: ContentHash.etag(text), document: document,
                     documentETag: ContentHash.etag(document), fragment: rendered.fragment)
    }
}
