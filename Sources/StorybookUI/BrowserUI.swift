public import Foundation

/// The browser UI's files: the copy embedded into the library at build time (``embedded``), or
/// the files of a directory (`--public DIR`, for working on the UI). Paths are relative to the
/// UI's root (`index.html`, `js/main.js`), with `/` between components.
public struct BrowserUI: Sendable {
    /// One file of the UI.
    public struct File: Sendable, Equatable {
        /// The path from the UI's root, `js/main.js`.
        public let path: String
        /// The file's content.
        public let bytes: [UInt8]

        /// The `Content-Type` the server answers for this file.
        public var contentType: String { BrowserUI.contentType(forPath: path) }
    }

    /// The files, sorted by path.
    public let files: [File]
    private let byPath: [String: Int]

    init(files: [File]) {
        self.files = files.sorted { $0.path < $1.path }
        byPath = Dictionary(uniqueKeysWithValues: self.files.enumerated().map { ($1.path, $0) })
    }

    /// The UI of `Public/` as it was when the library was built.
    public static let embedded = BrowserUI(files: EmbeddedBrowserUI.decode())

    /// The file at `path` (relative to the UI's root), if there is one.
    public func file(_ path: String) -> File? {
        byPath[path].map { files[$0] }
    }

    /// MIME types by file extension; anything else is `application/octet-stream`.
    public static let mimeTypes: [String: String] = [
        "html": "text/html; charset=utf-8", "js": "text/javascript; charset=utf-8", "mjs": "text/javascript; charset=utf-8",
        "css": "text/css; charset=utf-8", "json": "application/json; charset=utf-8", "svg": "image/svg+xml",
        "png": "image/png", "jpg": "image/jpeg", "jpeg": "image/jpeg", "gif": "image/gif", "ico": "image/x-icon",
        "txt": "text/plain; charset=utf-8", "map": "application/json; charset=utf-8", "woff2": "font/woff2", "webp": "image/webp",
    ]

    /// The `Content-Type` of a file named `path`.
    public static func contentType(forPath path: String) -> String {
        let name = path.split(separator: "/").last.map(String.init) ?? path
        guard let dot = name.lastIndex(of: "."), dot != name.startIndex else { return "application/octet-stream" }
        return mimeTypes[name[name.index(after: dot)...].lowercased()] ?? "application/octet-stream"
    }
}

/// The generated half (`EmbeddedBrowserUI.base64Files`) is written by the EmbedBrowserUI plugin.
enum EmbeddedBrowserUI {
    static func decode() -> [BrowserUI.File] {
        base64Files.map { entry in
            guard let data = Data(base64Encoded: entry.base64) else {
                preconditionFailure("the embedded browser UI file \(entry.path) is not valid base64")
            }
            return BrowserUI.File(path: entry.path, bytes: [UInt8](data))
        }
    }
}

extension BrowserUI {
    /// Why a directory cannot be read as the browser UI.
    public struct LoadError: Error, CustomStringConvertible {
        /// What is wrong, naming the directory or file.
        public let description: String
    }

    /// The files of `directory` as they are now (`--public DIR`): hidden names are left out, and a
    /// symbolic link counts only when the file it names is inside `directory`.
    public init(directory: URL) throws(LoadError) {
        let root = directory.standardizedFileURL.resolvingSymlinksInPath()
        guard FileManager.default.fileExists(atPath: root.appendingPathComponent("index.html").path) else {
            throw LoadError(description: "\(directory.path) is not the browser UI's directory (no index.html)")
        }
        self.init(files: try Self.read(root, root: root, prefix: ""))
    }

    private static func read(_ directory: URL, root: URL, prefix: String) throws(LoadError) -> [File] {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else {
            throw LoadError(description: "cannot read \(directory.path)")
        }
        var files: [File] = []
        for name in names.sorted() where !name.hasPrefix(".") {
            let resolved = directory.appendingPathComponent(name).resolvingSymlinksInPath()
            guard resolved.path.hasPrefix(root.path + "/") else { continue }
            var isDirectory: ObjCBool = false
            guard FileManager.default.fileExists(atPath: resolved.path, isDirectory: &isDirectory) else { continue }
            if isDirectory.boolValue {
                files += try read(resolved, root: root, prefix: prefix + name + "/")
            } else {
                guard let data = FileManager.default.contents(atPath: resolved.path) else {
                    throw LoadError(description: "cannot read \(resolved.path)")
                }
                files.append(File(path: prefix + name, bytes: [UInt8](data)))
            }
        }
        return files
    }
}
