import DemoCatalog
import Foundation
import PropsCatalog
@testable import StorybookServer
import Testing
@testable import StorybookReview

/// `storybook export`: the tree's layout and bytes, and the rules for replacing a destination.
@Suite struct SnapshotExportTests {
    let catalog: Catalog
    let temporary = TemporaryDirectory(prefix: "export-")
    var root: String { temporary.path }

    init() throws {
        catalog = try DemoCatalog.make()
        try FileManager.default.createDirectory(atPath: root, withIntermediateDirectories: true)
    }

    private func tree(_ path: String) throws -> [String: Data] {
        var files: [String: Data] = [:]
        for name in try FileManager.default.contentsOfDirectory(atPath: path) {
            files[name] = FileManager.default.contents(atPath: path + "/" + name)
        }
        return files
    }

    @Test func everyStoryHasFourFilesMatchingTheRenderCache() throws {
        let out = root + "/out"
        let summary = try SnapshotExport(catalog: catalog).write(to: out)
        let files = try tree(out)
        let environmentFiles = files.keys.filter { $0.contains("@") }
        #expect(summary == .init(stories: catalog.stories.count, files: catalog.stories.count * 4 + environmentFiles.count + 2))
        #expect(environmentFiles.contains("media-movie-detail--default@de-DE.txt") && !environmentFiles.contains { $0.hasPrefix("auth-login") })
        #expect(files.count == summary.files)
        let cache = RenderCache(catalog: catalog)
        for story in catalog.stories {
            let entry = try #require(cache.entry(story.id))
            #expect(files["\(story.id).txt"] == Data(entry.text))
            #expect(files["\(story.id).html"] == Data(entry.document))
            #expect(files["\(story.id).a11y.txt"] == Data(entry.body(.a11y)))
            #expect(files["\(story.id).json"] == Data((story.props.serialized(pretty: true) + "\n").utf8))
        }
        let index = try JSONParser.parse(Array(try #require(files["index.json"])))
        let first = try #require(index["components"]?.arrayValue?.first?["stories"]?.arrayValue?.first)
        let entry = try #require(cache.entry("auth-login--empty"))
        #expect(first["id"] == "auth-login--empty")
        #expect(first["hashes"]?["txt"]?.stringValue == entry.textHash)
        #expect(first["hashes"]?["html"]?.stringValue.map { "\"\($0)\"" } == entry.documentETag)
        let html = String(decoding: try #require(files["index.html"]), as: UTF8.self)
        #expect(html.contains("<a href=\"auth-login--empty.txt\">text</a> · <a href=\"auth-login--empty.a11y.txt\">accessibility</a> · <a href=\"auth-login--empty.html\">html</a>"))
        #expect(html.contains("<h2>Auth/Login</h2>"))
    }

    @Test func twoExportsAreByteIdenticalAndThePreviousOneIsReplaced() throws {
        let first = root + "/first", out = root + "/out"
        _ = try SnapshotExport(catalog: catalog).write(to: first)
        _ = try SnapshotExport(catalog: catalog.adding(SyntheticCatalog.components(count: 3))).write(to: out)
        #expect(FileManager.default.fileExists(atPath: out + "/synthetic-group-000-card-0000--default.txt"))
        _ = try SnapshotExport(catalog: catalog).write(to: out)
        #expect(try tree(out) == tree(first))
        #expect(try FileManager.default.contentsOfDirectory(atPath: root).sorted() == ["first", "out"])
    }

    @Test func aDirectoryThatIsNotAnExportIsRefusedAndUntouched() throws {
        let out = root + "/mine"
        try FileManager.default.createDirectory(atPath: out, withIntermediateDirectories: false)
        try Data("keep me".utf8).write(to: URL(fileURLWithPath: out + "/notes.txt"))
        #expect(throws: SnapshotError.notAnExport(out)) { try SnapshotExport(catalog: catalog).write(to: out) }
        #expect(try tree(out) == ["notes.txt": Data("keep me".utf8)])
        #expect(try FileManager.default.contentsOfDirectory(atPath: root) == ["mine"])

        try Data().write(to: URL(fileURLWithPath: root + "/file"))
        #expect(throws: SnapshotError.notADirectory(root + "/file")) { try SnapshotExport(catalog: catalog).write(to: root + "/file") }
        try FileManager.default.createSymbolicLink(atPath: root + "/link", withDestinationPath: out)
        #expect(throws: SnapshotError.symbolicLink(root + "/link")) { try SnapshotExport(catalog: catalog).write(to: root + "/link") }
    }

    @Test func anEmptyDirectoryIsFilledAndMissingParentsAreMade() throws {
        try FileManager.default.createDirectory(atPath: root + "/empty", withIntermediateDirectories: false)
        _ = try SnapshotExport(catalog: catalog).write(to: root + "/empty")
        _ = try SnapshotExport(catalog: catalog).write(to: root + "/a/b/c")
        #expect(try tree(root + "/empty") == tree(root + "/a/b/c"))
    }

    @Test func storyFileNames() {
        #expect(StorySnapshot.storyID(ofFileNamed: "auth-login--filled.txt") == "auth-login--filled")
        #expect(StorySnapshot.storyID(ofFileNamed: "a--b.json") == "a--b")
        #expect(StorySnapshot.storyID(ofFileNamed: "index.json") == nil)
        #expect(StorySnapshot.storyID(ofFileNamed: "README.md") == nil)
        #expect(StorySnapshot.storyID(ofFileNamed: ".a--b.txt.tmp-12") == nil)
        #expect(StorySnapshot.storyID(ofFileNamed: "Upper--case.txt") == nil)
    }
}
