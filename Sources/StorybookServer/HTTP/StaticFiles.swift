import Foundation
import PropsCatalog
import StorybookReview
import StorybookTransport
import StorybookUI

/// Serves the browser UI: by default the copy embedded into the library at build time, from
/// memory with ETags computed once; with `--public DIR`, the files of that directory read on
/// every request, so edits show on reload. MIME types, strong ETags and 304s either way, and never
/// a file outside the UI (`..`, encoded dots and symlinks that lead out are all refused with 404).
struct StaticFiles: Sendable {
    /// One embedded file, ready to answer.
    private struct Prepared: Sendable {
        let bytes: [UInt8]
        let contentType: String
        let etag: String
    }

    private enum Source: Sendable {
        case embedded([String: Prepared])
        case directory(URL)
    }

    private let source: Source

    /// The UI embedded into the library.
    init(embedded ui: BrowserUI = .embedded) {
        var prepared: [String: Prepared] = [:]
        for file in ui.files {
            prepared[file.path] = Prepared(bytes: file.bytes, contentType: file.contentType, etag: ContentHash.etag(file.bytes))
        }
        source = .embedded(prepared)
    }

    /// The files of `root`, read when asked for.
    init(root: URL) {
        source = .directory(root.standardizedFileURL.resolvingSymlinksInPath())
    }

    /// `--public DIR` when given, else the embedded UI.
    init(directory: URL?) {
        if let directory { self.init(root: directory) } else { self.init() }
    }

    /// The path relative to the UI's root that a URL path names (`index.html` for a directory), or
    /// nil when it can name nothing servable.
    static func relativePath(_ path: String) -> String? {
        guard let decoded = path.removingPercentEncoding, !decoded.contains("\0") else { return nil }
        var components = decoded.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if components.contains(where: { $0 == ".." || $0 == "." || $0.hasPrefix(".") || $0.contains("\\") }) { return nil }
        if components.isEmpty || decoded.hasSuffix("/") { components.append("index.html") }
        return components.joined(separator: "/")
    }

    /// The file a URL path names in a directory UI, or nil when it names nothing servable there.
    func resolve(_ path: String) -> URL? {
        guard case .directory(let root) = source, let relative = Self.relativePath(path) else { return nil }
        let candidate = relative.split(separator: "/").reduce(root) { $0.appendingPathComponent(String($1)) }.resolvingSymlinksInPath()
        guard candidate.path.hasPrefix(root.path + "/") else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return candidate
    }

    /// The answer to a GET or HEAD of `path`.
    func response(for request: HTTPRequest) -> HTTPResponse {
        switch source {
        case .embedded(let files):
            guard let relative = Self.relativePath(request.path), let file = files[relative] else { return notFound(request) }
            return .cached(file.bytes, contentType: file.contentType, etag: file.etag, request: request)
        case .directory:
            guard let file = resolve(request.path), let data = FileManager.default.contents(atPath: file.path) else { return notFound(request) }
            let bytes = [UInt8](data)
            return .cached(bytes, contentType: BrowserUI.contentType(forPath: file.lastPathComponent), etag: ContentHash.etag(bytes), request: request)
        }
    }

    private func notFound(_ request: HTTPRequest) -> HTTPResponse {
        .error(APIError(.notFound, "no such file: \(request.path)"))
    }
}
