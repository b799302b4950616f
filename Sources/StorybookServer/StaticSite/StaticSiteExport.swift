import Foundation
import PropsCatalog

/// `storybook export --site DIR`: the browser UI as a read-only site that any static file host
/// can serve, with no storybook server behind it.
///
/// The tree is a copy of `Public/` plus the data the UI reads when it finds `static/site.json`:
///
/// ```text
/// DIR/index.html, DIR/js/..., DIR/app.css ...     the files of Public/ (hidden files left out); index.html
///                                                 gets <meta name="storybook-static" content="static/site.json">
/// DIR/static/site.json                            {"static": true}: marks the directory as a site
/// DIR/static/index.json                           what GET /api/index.json answers
/// DIR/static/stories/<story-id>.json              what GET /api/stories/{id} answers for the registered variant (version 1)
/// DIR/static/schema/<component-id>.json           what GET /api/components/{id}/schema answers
/// DIR/static/overview/<component-id>.json         what GET /api/components/{id}/overview answers
/// ```
///
/// Written like `export --out` (``SnapshotExport``): into a sibling `DIR.tmp-<pid>` renamed into
/// place when complete, so a failed export never leaves a tree that looks complete. An existing
/// `DIR` is replaced only when it is empty or a previous site (has `static/site.json`). JSON is
/// serialized with sorted keys and nothing depends on the time: equal catalogs and equal `Public/`
/// give byte-identical trees.
struct StaticSiteExport {
    struct Summary: Sendable, Equatable {
        let stories: Int
        let files: Int
        /// A previous site moved aside that could not be removed, if any.
        var leftover: String?
    }

    static let dataDirectory = "static"
    static let markerName = "site.json"

    let catalog: Catalog
    /// The browser UI's directory (``PublicDirectory``).
    let publicDirectory: String

    func write(to destination: String) throws(SnapshotError) -> Summary {
        let directory = try ReplaceableDirectory(destination: destination, marker: Self.dataDirectory + "/" + Self.markerName) { path in
            SnapshotError(description: "refusing to replace \(path): it is not empty and has no \(Self.dataDirectory)/\(Self.markerName), so it is not a static site (nothing was changed; remove it or choose another --site)")
        }
        let source = URL(fileURLWithPath: publicDirectory).standardizedFileURL.resolvingSymlinksInPath().path
        guard FileSystem.isDirectory(source), try FileSystem.kind(source + "/index.html") == .file else {
            throw SnapshotError(description: "\(publicDirectory) is not the browser UI's directory (no index.html): give it with --public DIR")
        }
        let resolvedTarget = URL(fileURLWithPath: directory.path).resolvingSymlinksInPath().path
        if Self.contains(source, resolvedTarget) || Self.contains(resolvedTarget, source) {
            throw SnapshotError(description: "the site \(directory.path) and the UI's directory \(source) must not contain one another")
        }
        let (files, leftover) = try directory.write { temporary throws(SnapshotError) in
            var files = try Self.copyTree(from: source, to: temporary)
            try Self.markIndex(temporary + "/index.html")
            try FileSystem.write(Array(HTMLProjection.stylesheet.utf8), to: temporary + "/" + HTTPRouter.previewStylesheetName, exclusive: true)
            files += 1
            return files + (try writeData(into: temporary))
        }
        var summary = Summary(stories: catalog.stories.count, files: files)
        summary.leftover = leftover
        return summary
    }

    // MARK: - The data files

    /// Writes `static/`: the marker, the index, every story and every component's schema and overview.
    private func writeData(into directory: String) throws(SnapshotError) -> Int {
        let data = directory + "/" + Self.dataDirectory
        try FileSystem.makeDirectory(data)
        try FileSystem.makeDirectory(data + "/stories")
        try FileSystem.makeDirectory(data + "/schema")
        try FileSystem.makeDirectory(data + "/overview")
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
        let overviews = try ParallelMap.map(catalog.components, chunkSize: 8) { component throws(SnapshotError) in
            (name: try Self.fileName(component.id), bytes: Self.bytes(component.overview()))
        }
        for overview in overviews {
            try FileSystem.write(overview.bytes, to: data + "/overview/" + overview.name, exclusive: true)
        }
        return 2 + stories.count + schemas.count + overviews.count
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

    /// Adds ``staticMeta`` to the copied index.html, after `<meta charset="utf-8">` (else right
    /// after `<head>`): the UI reads it to start in static mode.
    static func markIndex(_ path: String) throws(SnapshotError) {
        guard let bytes = try FileSystem.read(path) else { throw .io("read", path, errno: ENOENT) }
        let html = String(decoding: bytes, as: UTF8.self)
        guard let anchor = html.range(of: "<meta charset=\"utf-8\">") ?? html.range(of: "<head>") else {
            throw SnapshotError(description: "\(path) has no <head>: cannot mark it as a static site")
        }
        let marked = html[..<anchor.upperBound] + "\n  " + staticMeta + html[anchor.upperBound...]
        try FileSystem.writeAtomically(Array(marked.utf8), to: path)
    }

    /// Copies the files of `source` into the existing directory `destination`, in sorted order:
    /// hidden names are left out (the server does not serve them either); a symbolic link is
    /// copied as the file it names when that file is inside `source`, else left out. Answers how
    /// many files were copied.
    static func copyTree(from source: String, to destination: String, root: String? = nil) throws(SnapshotError) -> Int {
        let root = root ?? source
        var count = 0
        for name in try FileSystem.entries(source) where !name.hasPrefix(".") {
            let from = source + "/" + name
            let to = destination + "/" + name
            switch try FileSystem.kind(from) {
            case .directory:
                try FileSystem.makeDirectory(to)
                count += try copyTree(from: from, to: to, root: root)
            case .file:
                try copy(from, to: to)
                count += 1
            case .symbolicLink:
                let resolved = URL(fileURLWithPath: from).resolvingSymlinksInPath().path
                guard contains(root, resolved), try FileSystem.kind(resolved) == .file else { continue }
                try copy(resolved, to: to)
                count += 1
            case .missing, .other:
                continue
            }
        }
        return count
    }

    private static func copy(_ source: String, to destination: String) throws(SnapshotError) {
        guard let bytes = try FileSystem.read(source) else { throw .io("read", source, errno: ENOENT) }
        try FileSystem.write(bytes, to: destination, exclusive: true)
    }

    /// Whether `path` is `directory` or inside it.
    private static func contains(_ directory: String, _ path: String) -> Bool {
        path == directory || path.hasPrefix(directory.hasSuffix("/") ? directory : directory + "/")
    }
}
