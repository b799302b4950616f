import Foundation
import PropsCatalog
@testable import StorybookServer
import Testing
@testable import StorybookTransport

/// Static files never leave their directory.
@Suite struct StaticFilesTests {
    let root: URL
    let files: StaticFiles

    init() throws {
        let base = FileManager.default.temporaryDirectory.appendingPathComponent("static-\(UUID().uuidString)")
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
