import Foundation
import PropsCatalog

/// Serves the browser UI from one directory: MIME types, strong ETags, 304s, and never a file
/// outside the directory (`..`, encoded dots and symlinks that lead out are all refused with 404).
struct StaticFiles: Sendable {
    let root: URL

    init(root: URL) {
        self.root = root.standardizedFileURL.resolvingSymlinksInPath()
    }

    static let mimeTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8", "json": "application/json; charset=utf-8", "svg": "image/svg+xml",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "ico": "image/x-icon",
        "txt": "text/plain; charset=utf-8", "map": "application/json; charset=utf-8", "woff2": "font/woff2", "webp": "image/webp",
    ]

    /// The file a URL path names, or nil when it names nothing servable.
    func resolve(_ path: String) -> URL? {
        guard let decoded = path.removingPercentEncoding, !decoded.contains("\0") else { return nil }
        var components = decoded.split(separator: "/", omittingEmptySubsequences: true).map(String.init)
        if components.contains(where: { $0 == ".." || $0 == "." || $0.hasPrefix(".") || $0.contains("\\") }) { return nil }
        if components.isEmpty || decoded.hasSuffix("/") { components.append("index.html") }
        let candidate = components.reduce(root) { $0.appendingPathComponent($1) }.resolvingSymlinksInPath()
        guard candidate.path.hasPrefix(root.path + "/") else { return nil }
        var isDirectory: ObjCBool = false
        guard FileManager.default.fileExists(atPath: candidate.path, isDirectory: &isDirectory), !isDirectory.boolValue else { return nil }
        return candidate
    }

    /// The answer to a GET or HEAD of `path`.
    func response(for request: HTTPRequest) -> HTTPResponse {
        guard let file = resolve(request.path), let data = FileManager.default.contents(atPath: file.path) else {
            return .error(EditError(.notFound, "no such file: \(request.path)"))
        }
        let bytes = [UInt8](data)
        let type = Self.mimeTypes[file.pathExtension.lowercased()] ?? "application/octet-stream"
        return .cached(bytes, contentType: type, etag: ContentHash.etag(bytes), request: request)
    }
}
