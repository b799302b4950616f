package import PropsCatalog

/// One story's files in an export or a snapshot directory: `<id>.txt` (the text projection),
/// `<id>.json` (the registered props, pretty, sorted keys) and `<id>.html` (the standalone
/// document), byte-identical to what `/render/{id}.txt|.html` serves.
package struct StorySnapshot: Sendable {
    /// The kinds of file of a story, named by their extension, in the order diffs show them.
    package enum Kind: String, Sendable, CaseIterable {
        case txt, json, html
    }

    /// One file of the story: its name in the directory, its bytes and their content hash.
    package struct File: Sendable {
        package let kind: Kind
        package let name: String
        package let bytes: [UInt8]
        /// `ContentHash.hex` of the bytes: the ETag of `/render/{id}.txt|.html` without quotes.
        package let hash: String
    }

    package let id: String
    /// The component's id, for grouping (JUnit `classname`).
    package let componentID: String
    /// "Title / Variant", as the document's title shows it.
    package let title: String
    /// The files in ``Kind`` order.
    package let files: [File]

    /// Renders `story` exactly as the render cache does.
    package init(_ story: Catalog.Story) throws(SnapshotError) {
        let rendered: RenderedStory
        do {
            rendered = try RenderedStory(story)
        } catch {
            throw .unrenderable(story.id, "\(error)")
        }
        let text = Array(rendered.text.utf8)
        let document = Array(rendered.document.utf8)
        let props = Array((story.props.serialized(pretty: true) + "\n").utf8)
        id = story.id
        componentID = story.component.id
        title = "\(story.component.title) / \(story.name)"
        files = [
            File(kind: .txt, name: "\(story.id).txt", bytes: text, hash: ContentHash.hex(text)),
            File(kind: .json, name: "\(story.id).json", bytes: props, hash: ContentHash.hex(props)),
            File(kind: .html, name: "\(story.id).html", bytes: document, hash: ContentHash.hex(document)),
        ]
    }

    /// `{"txt": hash, "json": hash, "html": hash}`, as the export's index.json lists them.
    package var hashes: JSONValue {
        .object(Dictionary(uniqueKeysWithValues: files.map { ($0.kind.rawValue, JSONValue.string($0.hash)) }))
    }

    /// Whether `name` could be the file of a story: `<id>.txt|.json|.html` with a story-shaped
    /// id (lowercase letters, digits and dashes, with the `--` between component and variant).
    package static func storyID(ofFileNamed name: String) -> String? {
        guard let dot = name.lastIndex(of: "."), Kind(rawValue: String(name[name.index(after: dot)...])) != nil else { return nil }
        let id = Array(name[..<dot].utf8)
        let hasSeparator = id.indices.dropLast().contains { id[$0] == 0x2D && id[$0 + 1] == 0x2D }
        guard hasSeparator, id.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }) else {
            return nil
        }
        return String(decoding: id, as: UTF8.self)
    }
}
