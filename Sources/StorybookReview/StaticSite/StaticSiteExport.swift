import Foundation
package import PropsCatalog
package import StorybookUI

/// `storybook export --site DIR`: the browser UI as a read-only site that any static file host
/// can serve, with no storybook server behind it.
///
/// The tree is the browser UI (the copy embedded at build time, or `--public DIR`) plus the data the UI reads when it finds `static/site.json`:
///
/// ```text
/// DIR/index.html, DIR/js/..., DIR/app.css ...     the files of the UI (hidden files left out); index.html
///                                                 gets <meta name="storybook-static" content="static/site.json">
/// DIR/static/site.json                            {"static": true}: marks the directory as a site
/// DIR/static/index.json                           what GET /api/index.json answers
/// DIR/static/stories/<story-id>.json              what GET /api/stories/{id} answers for the registered variant (version 1)
/// DIR/static/schema/<component-id>.json           what GET /api/components/{id}/schema answers
/// ```
///
/// Written like `export --out` (``SnapshotExport``): into a sibling `DIR.tmp-<pid>` renamed into
/// place when complete, so a failed export never leaves a tree that looks complete. An existing
/// `DIR` is replaced only when it is empty or a previous site (has `static/site.json`). JSON is
/// serialized with sorted keys and nothing depends on the time: equal catalogs and equal UIs
/// give byte-identical trees.
package struct StaticSiteExport {
    package struct Summary: Sendable, Equatable {
        package let stories: Int
        package let files: Int
        /// A previous site moved aside that could not be removed, if any.
        package var leftover: String?
    }

    static let dataDirectory = "static"
    static let markerName = "site.json"

    let catalog: Catalog
    /// The browser UI to copy: the embedded one, or `--public DIR`'s files.
    let ui: BrowserUI
    /// The directory `ui` was read from, if any: the site may not be written inside it.
    var uiDirectory: String?

    package init(catalog: Catalog, ui: BrowserUI = .embedded, uiDirectory: String? = nil) {
        self.catalog = catalog
        self.ui = ui
        self.uiDirectory = uiDirectory
    }

    package func write(to destination: String) throws(SnapshotError) -> Summary {
        let directory = try ReplaceableDirectory(destination: destination, marker: Self.dataDirectory + "/" + Self.markerName) { path in
            SnapshotError(description: "refusing to replace \(path): it is not empty and has no \(Self.dataDirectory)/\(Self.markerName), so it is not a static site (nothing was changed; remove it or choose another --site)")
        }
        if let uiDirectory {
            let source = URL(fileURLWithPath: uiDirectory).standardizedFileURL.resolvingSymlinksInPath().path
            let resolvedTarget = URL(fileURLWithPath: directory.path).resolvingSymlinksInPath().path
            if Self.contains(source, resolvedTarget) || Self.contains(resolvedTarget, source) {
                throw SnapshotError(description: "the site \(directory.path) and the UI's directory \(source) must not contain one another")
            }
        }
        let (files, leftover) = try directory.write { temporary throws(SnapshotError) in
            var files = try writeUI(into: temporary)
            try FileSystem.write(Array(HTMLProjection.stylesheet.utf8), to: temporary + "/" + RenderedStory.previewStylesheetName, exclusive: true)
            files += 1
            return files + (try writeData(into: temporary))
        }
        var summary = Summary(stories: catalog.stories.count, files: files)
        summary.leftover = leftover
        return summary
    }

    // MARK: - The data files

    /// Writes `static/`: the marker, the index, every story and every component's schema.
    private func writeData(into directory: String) throws(SnapshotError) -> Int {
        let data = directory + "/" + Self.dataDirectory
        try FileSystem.makeDirectory(data)
        try FileSystem.makeDirectory(data + "/stories")
        try FileSystem.makeDirectory(data + "/schema")
        try FileSystem.write(Self.bytes(["static": true]), to: data + "/" + Self.markerName, exclusive: true)
        try FileSystem.write(Self.bytes(catalog.index), to: data + "/index.json", exclusive: true)

        let stories = try ParallelMap.map(catalog.stories) { story throws(SnapshotError) in
            (name: try Self.fileName(story.id), bytes: try Self.storyBytes(story))
        }
        for story in stories {
            try FileSystem.write(story.bytes, to: data + "/stories/" + story.name, exclusive: true)
        }
        let schemas = try ParallelMap.map(catalog.components, chunkSize: 8) { component throws(SnapshotError) in
            (name: try Self.fileName(component.id), bytes: Self.bytes(component.schema().json))
        }
        for schema in schemas {
            try FileSystem.write(schema.bytes, to: data + "/schema/" + schema.name, exclusive: true)
        }
        return 2 + stories.count + schemas.count
    }

    /// The registered variant as `GET /api/stories/{id}` shows it on a fresh server.
    static func storyBytes(_ story: Catalog.Story) throws(SnapshotError) -> [UInt8] {
        let validated: AnyComponent.Validated
        switch story.component.validate(story.props) {
        case .success(let value): validated = value
        case .failure(let error): throw .unrenderable(story.id, "\(error)")
        }
        let projections = Projections(validated.view)
        return bytes([
            "id": .string(story.id), "component": .string(story.component.id), "name": .string(story.name),
            "version": 1, "props": validated.props, "text": .string(projections.text), "html": .string(projections.html),
            "canUndo": false, "canRedo": false,
        ])
    }

    /// Sorted-keys JSON and a final newline.
    static func bytes(_ value: JSONValue) -> [UInt8] {
        value.serializedBytes() + [0x0A]
    }

    /// `<id>.json`, for ids that are safe as file names (slugs always are).
    private static func fileName(_ id: String) throws(SnapshotError) -> String {
        guard !id.isEmpty, !id.hasPrefix("."), !id.contains("/"), !id.contains("\0") else {
            throw SnapshotError(description: "the id '\(id)' cannot be a file name")
        }
        return id + ".json"
    }

    // MARK: - Copying Public/

    static let staticMeta = "<meta name=\"storybook-static\" content=\"\(dataDirectory)/\(markerName)\">"

    /// Adds ``staticMeta`` to index.html, after `<meta charset="utf-8">` (else right after
    /// `<head>`): the UI reads it to start in static mode.
    static func markIndex(_ bytes: [UInt8]) throws(SnapshotError) -> [UInt8] {
        let html = String(decoding: bytes, as: UTF8.self)
        guard let anchor = html.range(of: "<meta charset=\"utf-8\">") ?? html.range(of: "<head>") else {
            throw SnapshotError(description: "the UI's index.html has no <head>: cannot mark it as a static site")
        }
        return Array((html[..<anchor.upperBound] + "\n  " + staticMeta + html[anchor.upperBound...]).utf8)
    }

    /// Writes every file of ``ui`` below `destination` (index.html marked); answers how many.
    private func writeUI(into destination: String) throws(SnapshotError) -> Int {
        for file in ui.files {
            let components = file.path.split(separator: "/").map(String.init)
            var directory = destination
            for component in components.dropLast() {
                directory += "/" + component
                if !FileSystem.isDirectory(directory) { try FileSystem.makeDirectory(directory) }
            }
            let bytes = file.path == "index.html" ? try Self.markIndex(file.bytes) : file.bytes
            try FileSystem.write(bytes, to: destination + "/" + file.path, exclusive: true)
        }
        return ui.files.count
    }

    /// Whether `path` is `directory` or inside it.
    private static func contains(_ directory: String, _ path: String) -> Bool {
        path == directory || path.hasPrefix(directory.hasSuffix("/") ? directory : directory + "/")
    }
}
