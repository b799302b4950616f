import DemoCatalog
import Foundation
import PropsCatalog
@testable import StorybookServer
import Testing
@testable import StorybookReview

/// `storybook check`: the comparison, `--record`, `--prune`, the summary line and the JUnit report.
@Suite struct SnapshotCheckTests {
    let catalog: Catalog
    let temporary = TemporaryDirectory(prefix: "snapshots-")
    var directory: String { temporary.path }

    init() throws {
        catalog = try DemoCatalog.make()
    }

    private func check(record: Bool = false, prune: Bool = false) throws -> SnapshotReport {
        try SnapshotCheck(catalog: catalog, options: .init(record: record, prune: prune)).run(directory: directory)
    }

    private func file(_ name: String) -> String { directory + "/" + name }

    private func read(_ name: String) throws -> String {
        try String(contentsOfFile: file(name), encoding: .utf8)
    }

    private func write(_ text: String, _ name: String) throws {
        try text.write(toFile: file(name), atomically: false, encoding: .utf8)
    }

    @Test func aMissingDirectoryIsAnErrorUnlessRecording() throws {
        #expect(throws: SnapshotError.missingDirectory(directory)) { try check() }
        let recorded = try check(record: true)
        #expect(recorded.count(.new) == catalog.stories.count && recorded.passed && recorded.rewroteIndex)
        // Recording into nothing gives exactly what export writes.
        let exported = directory + "-export"
        defer { try? FileManager.default.removeItem(atPath: exported) }
        _ = try SnapshotExport(catalog: catalog).write(to: exported)
        for name in try FileManager.default.contentsOfDirectory(atPath: exported) {
            #expect(FileManager.default.contents(atPath: exported + "/" + name) == FileManager.default.contents(atPath: file(name)), "\(name)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory).sorted() == FileManager.default.contentsOfDirectory(atPath: exported).sorted())
        let clean = try check()
        #expect(clean.passed && clean.count(.unchanged) == catalog.stories.count)
        // The demo's one todo story is listed, not failed.
        #expect(clean.text.hasSuffix("\(catalog.stories.count) unchanged, 0 changed, 0 new, 0 removed; accessibility: 0 errors, 4 todo or warning\n"))
        #expect(clean.text.hasPrefix("a11y todo: settings-account-form--broken /0/1 image-alt: "))
    }

    @Test func anEditedGoldenIsAChangeWithADiffNamingTheStory() throws {
        _ = try check(record: true)
        let golden = try read("auth-login--filled.txt")
        try write(golden.replacingOccurrences(of: "Log in", with: "Sign in now"), "auth-login--filled.txt")
        let report = try check()
        #expect(!report.passed)
        #expect(report.count(.changed) == 1 && report.count(.unchanged) == catalog.stories.count - 1)
        let changed = try #require(report.stories.first { $0.status == .changed })
        #expect(changed.id == "auth-login--filled" && changed.files == ["auth-login--filled.txt"])
        #expect(report.text.contains("changed: auth-login--filled (Auth/Login / Filled)\n--- a/auth-login--filled.txt\n+++ b/auth-login--filled.txt\n@@ "))
        #expect(report.text.contains("\n-  button \"Sign in now\" -> login\n+  button \"Log in\" -> login\n"))
        #expect(report.text.hasSuffix("\(catalog.stories.count - 1) unchanged, 1 changed, 0 new, 0 removed; accessibility: 0 errors, 4 todo or warning\n"))

        let recorded = try check(record: true)
        #expect(recorded.passed && recorded.stories.first { $0.status == .changed }?.isResolved == true)
        #expect(recorded.text.contains("changed: auth-login--filled (Auth/Login / Filled), recorded\n"))
        #expect(try read("auth-login--filled.txt") == golden)
        #expect(try check().passed)
    }

    @Test func goldensOfAStoryThatIsGoneAreRemovedAndPruned() throws {
        _ = try check(record: true)
        try write("vstack\n", "auth-login--retired.txt")
        try write("{}\n", "auth-login--retired.json")
        try write("notes", "README.md")
        let report = try check(record: true)
        #expect(!report.passed && report.count(.removed) == 1)
        #expect(report.text.contains("removed: auth-login--retired: no such story (--prune deletes its goldens)\n"))
        let pruned = try check(prune: true)
        #expect(pruned.passed && pruned.text.contains("removed: auth-login--retired, pruned\n"))
        #expect(!FileManager.default.fileExists(atPath: file("auth-login--retired.txt")))
        #expect(try read("README.md") == "notes")
        #expect(try check().count(.removed) == 0)
    }

    @Test func aGoldenThatCannotBeReadIsAnError() throws {
        _ = try check(record: true)
        try FileManager.default.removeItem(atPath: file("auth-login--empty.html"))
        try FileManager.default.createDirectory(atPath: file("auth-login--empty.html"), withIntermediateDirectories: false)
        #expect(throws: SnapshotError.io("read", file("auth-login--empty.html"), errno: EISDIR)) { try check() }
    }

    // MARK: Report formatting

    private func comparison(_ id: String, _ status: StoryComparison.Status, diff: String = "", resolved: Bool = false) -> StoryComparison {
        var story = status == .removed
            ? StoryComparison(removed: id, files: ["\(id).txt"])
            : StoryComparison(id: id, componentID: String(id.prefix { $0 != "-" }), title: "T / \(id)", status: status,
                              files: status == .unchanged ? [] : ["\(id).txt"], diff: diff)
        story.isResolved = resolved
        return story
    }

    @Test func summaryCountsEveryStatus() {
        let report = SnapshotReport(directory: "Snapshots", stories: [
            comparison("a--1", .unchanged), comparison("a--2", .unchanged), comparison("a--3", .changed, diff: "--- a/x\n"),
            comparison("b--1", .new), comparison("b--2", .new), comparison("c--1", .removed),
        ])
        #expect(report.summary == "2 unchanged, 1 changed, 2 new, 1 removed")
        #expect(!report.passed)
        #expect(report.text == """
            changed: a--3 (T / a--3)
            --- a/x
            new: b--1 (T / b--1): no golden (--record writes it)
            new: b--2 (T / b--2): no golden (--record writes it)
            removed: c--1: no such story (--prune deletes its goldens)
            2 unchanged, 1 changed, 2 new, 1 removed

            """)
        let handled = SnapshotReport(directory: "Snapshots", stories: [comparison("b--1", .new, resolved: true), comparison("c--1", .removed, resolved: true)])
        #expect(handled.passed)
        #expect(handled.text.hasSuffix("recorded 1 story in Snapshots\npruned the goldens of 1 removed story from Snapshots\n0 unchanged, 0 changed, 1 new, 1 removed\n"))
    }

    @Test func junitHasOneTestcasePerStoryAndTheDiffInCDATA() {
        let hostileDiff = "--- a/x\n+<b>&\"]]>\u{1}\n"
        let report = SnapshotReport(directory: "S", stories: [
            comparison("a--ok", .unchanged), comparison("a--bad", .changed, diff: hostileDiff), comparison("c--gone", .removed),
            comparison("d--new", .new, resolved: true),
        ])
        let xml = JUnitReport.xml(report)
        #expect(xml.hasPrefix("<?xml version=\"1.0\" encoding=\"UTF-8\"?>\n<testsuites name=\"storybook snapshots\" tests=\"4\" failures=\"2\" errors=\"0\" skipped=\"0\">\n"))
        #expect(xml.contains("<testcase classname=\"a\" name=\"a--ok\"/>\n"))
        #expect(xml.contains("<testcase classname=\"d\" name=\"d--new\"/>\n"))
        #expect(xml.contains("<failure type=\"changed\" message=\"changed: a--bad (T / a--bad) [a--bad.txt]\">"
                             + "<![CDATA[--- a/x\n+<b>&\"]]]]><![CDATA[>\u{FFFD}\n]]></failure>"))
        #expect(xml.contains("<testcase classname=\"c\" name=\"c--gone\">\n      <failure type=\"removed\""))
        #expect(xml.hasSuffix("  </testsuite>\n</testsuites>\n"))
    }

    @Test func xmlEscaping() {
        #expect(JUnitReport.attribute("<a href=\"x\">'&'\n") == "&lt;a href=&quot;x&quot;&gt;&apos;&amp;&apos;&#10;")
        #expect(JUnitReport.cdata("a]]>b]]>") == "<![CDATA[a]]]]><![CDATA[>b]]]]><![CDATA[>]]>")
        #expect(JUnitReport.characters("ok\t\u{0}\u{1B}\u{FFFE}é😀") == "ok\t\u{FFFD}\u{FFFD}\u{FFFD}é😀")
    }
}
