import Foundation
import PropsCatalog
@testable import StorybookServer
import Testing
@testable import StorybookTransport
import StorybookUI

/// Static files never leave their directory.
@Suite struct StaticFilesTests {
    let temporary = TemporaryDirectory(prefix: "static-")
    let root: URL
    let files: StaticFiles

    init() throws {
        let base = temporary.url
        root = base.appendingPathComponent("Public")
        try FileManager.default.createDirectory(at: root.appendingPathComponent("js"), withIntermediateDirectories: true)
        try Data("<h1>ui</h1>".utf8).write(to: root.appendingPathComponent("index.html"))
        try Data("export {}".utf8).write(to: root.appendingPathComponent("js/app.js"))
        try Data("secret".utf8).write(to: base.appendingPathComponent("secret.txt"))
        try Data("hidden".utf8).write(to: root.appendingPathComponent(".env"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("escape.txt"), withDestinationURL: base.appendingPathComponent("secret.txt"))
        try FileManager.default.createSymbolicLink(at: root.appendingPathComponent("up"), withDestinationURL: base)
        files = StaticFiles(root: root)
    }

    private func get(_ path: String, headers: [String: String] = [:]) -> HTTPResponse {
        files.response(for: HTTPRequest(method: .get, path: path, headers: headers))
    }

    @Test func servesFilesWithTheirTypeAndETag() throws {
        let index = get("/")
        #expect(index.status == 200)
        #expect(String(decoding: index.body, as: UTF8.self) == "<h1>ui</h1>")
        #expect(index.headers.contains { $0 == ("Content-Type", "text/html; charset=utf-8") })
        let script = get("/js/app.js")
        #expect(script.headers.contains { $0 == ("Content-Type", "text/javascript; charset=utf-8") })
        let etag = try #require(script.headers.first { $0.0 == "ETag" }?.1)
        #expect(get("/js/app.js", headers: ["if-none-match": etag]).status == 304)
    }

    @Test(arguments: ["/../secret.txt", "/js/../../secret.txt", "/%2e%2e/secret.txt", "/%2E%2E%2Fsecret.txt", "/..%2fsecret.txt",
                      "/escape.txt", "/up/secret.txt", "/.env", "/missing.js", "/js", "/js/%00app.js", "/..\\secret.txt"])
    func refusesEverythingOutside(path: String) {
        let response = get(path)
        #expect(response.status == 404)
        #expect(String(decoding: response.body, as: UTF8.self) != "secret")
    }
}

/// The UI embedded into the library at build time is Public/ byte for byte, served from memory.
@Suite struct EmbeddedUITests {
    /// The repository's Public/, found from this file.
    static let publicDirectory = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
        .appendingPathComponent("Public")

    @Test func theEmbeddedFilesArePublicAsItIs() throws {
        let fromDisk = try BrowserUI(directory: Self.publicDirectory)
        #expect(BrowserUI.embedded.files.map(\.path) == fromDisk.files.map(\.path))
        #expect(BrowserUI.embedded.files == fromDisk.files)
        #expect(BrowserUI.embedded.file("js/main.js") != nil)
    }

    @Test func servesEveryEmbeddedFileWithItsTypeAndETag() throws {
        let files = StaticFiles()
        for file in BrowserUI.embedded.files {
            let response = files.response(for: HTTPRequest(method: .get, path: "/" + file.path))
            #expect(response.status == 200, "\(file.path)")
            #expect(response.body == file.bytes)
            #expect(response.headers.contains { $0 == ("Content-Type", file.contentType) })
            let etag = try #require(response.headers.first { $0.0 == "ETag" }?.1)
            #expect(files.response(for: HTTPRequest(method: .get, path: "/" + file.path, headers: ["if-none-match": etag])).status == 304)
        }
        #expect(files.response(for: HTTPRequest(method: .get, path: "/")).body == BrowserUI.embedded.file("index.html")?.bytes)
    }

    @Test(arguments: ["/../Package.swift", "/%2e%2e/Package.swift", "/.hidden", "/missing.js", "/js", "/js/%00main.js"])
    func refusesWhatIsNotAnEmbeddedFile(path: String) {
        #expect(StaticFiles().response(for: HTTPRequest(method: .get, path: path)).status == 404)
    }

    @Test func contentTypesFollowTheExtension() {
        #expect(BrowserUI.contentType(forPath: "js/app.mjs") == "text/javascript; charset=utf-8")
        #expect(BrowserUI.contentType(forPath: "favicon.SVG") == "image/svg+xml")
        #expect(BrowserUI.contentType(forPath: "LICENSE") == "application/octet-stream")
    }
}
