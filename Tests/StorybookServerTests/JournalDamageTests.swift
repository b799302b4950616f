import DemoCatalog
import Foundation
import Logging
import PropsCatalog
@testable import StorybookServer
import Testing

/// A journal with damage at its start, in its middle and at its end restores what it can, sets aside
/// what depends on the damage and never reuses a version number; failed appends leave no fragment.
@Suite struct JournalDamageTests {
    static let story = "profile-user-profile--default"
    static let other = "auth-login--empty"
    let catalog = try! DemoCatalog.make()
    let temporary = TemporaryDirectory(prefix: "journal-damage-")
    var directory: URL { temporary.url }
    let logger = Logger(label: "test")

    private var journalURL: URL { directory.appendingPathComponent(Journal.fileName) }

    /// Writes `count` versions after the registered one (names "v2", "v3", ...), interleaved with one edit of another story.
    private func writeVersions(_ count: Int) throws -> [String] {
        let (journal, _) = try Journal.open(directory: directory, catalog: catalog, logger: logger)
        var session = try StorySession(story: #require(catalog.story(id: Self.story)))
        var other = try StorySession(story: #require(catalog.story(id: Self.other)))
        for index in 0..<count {
            let patch = try JSONPatch(json: [["op": "replace", "path": "/name", "value": .string("v\(index + 2)")]])
            let prepared = try #require(try session.prepare(.patch(patch), source: .http).get())
            try journal.record(SerializedEntry(prepared.entry), of: session)
            _ = session.commit(prepared)
            if index == 1 {
                let reset = try #require(try other.prepare(.reset, source: .http).get())
                try journal.record(SerializedEntry(reset.entry), of: other)
                _ = other.commit(reset)
            }
        }
        journal.close()
        return try String(contentsOf: journalURL, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    private func reopen() throws -> [String: StorySession] {
        let (journal, sessions) = try Journal.open(directory: directory, catalog: catalog, logger: logger)
        journal.close()
        return sessions
    }

    private func setAsideLines() -> [String] {
        let folder = directory.appendingPathComponent("set-aside")
        let files = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return files.flatMap { name in
            ((try? String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)) ?? "").split(separator: "\n").map(String.init)
        }
    }

    private func write(_ lines: [String]) throws {
        try Data((lines.joined(separator: "\n") + "\n").utf8).write(to: journalURL)
    }

    @Test func damageInTheMiddleRestoresUpToItAndNumberingGoesOn() throws {
        let lines = try writeVersions(6)  // profile: v1 snapshot + patches 2...7; the other story's block after version 3
        let index = try #require(lines.firstIndex { $0.contains(#""version":4"#) && $0.contains(Self.story) })
        var damaged = lines
        damaged[index] = String(damaged[index].prefix(30)) + "#garbage"
        try write(damaged)
        let sessions = try reopen()
        let session = try #require(sessions[Self.story])
        #expect(session.props["name"] == "v3")  // restored up to the damage
        #expect(session.version == 7)  // the highest version seen: the next change is 8
        #expect(try session.history.props(at: 3)?["name"] == "v3")
        #expect(sessions[Self.other]?.version == 2)  // another story's records are untouched
        let aside = setAsideLines()
        #expect(aside.contains { $0.hasPrefix(String(lines[index].prefix(30))) })  // the damaged line
        #expect(aside.filter { $0.contains(Self.story) && $0.contains(#""version":"#) }.count >= 3)  // 5, 6, 7 depend on it
        // The next run finds a sound journal: the same state, nothing more set aside.
        let again = try reopen()
        #expect(again[Self.story]?.version == 7)
        #expect(again[Self.story]?.props["name"] == "v3")
    }

    @Test func damageAtTheStartFallsBackToTheRegisteredPropsAndKeepsNumbering() throws {
        let lines = try writeVersions(4)
        var damaged = lines
        damaged[0] = "\u{0}\u{0}" + damaged[0].dropFirst(5)  // the snapshot of version 1
        try write(damaged)
        let session = try #require(try reopen()[Self.story])
        #expect(session.version == 5)
        #expect(session.props == catalog.story(id: Self.story)!.props.canonicalForTest(catalog))
    }

    @Test func aLastLineWithoutItsNewlineIsATornWriteAndIsCutOff() throws {
        let lines = try writeVersions(3)
        try Data((lines.joined(separator: "\n") + "\n" + String(lines.last!.prefix(20))).utf8).write(to: journalURL)
        let session = try #require(try reopen()[Self.story])
        #expect(session.version == 4 && session.props["name"] == "v4")  // never acknowledged: version 5 is free
        let text = try String(contentsOf: journalURL, encoding: .utf8)
        #expect(text.hasSuffix("\n"))
        #expect(setAsideLines().isEmpty)
    }

    @Test func aDamagedLastLineWithItsNewlineIsSetAsideAndNumberingGoesOnAfterIt() throws {
        let lines = try writeVersions(3)  // the last line is version 4
        var damaged = lines
        damaged[damaged.count - 1] = "#" + damaged[damaged.count - 1].dropFirst()  // whole, newline and version kept
        try write(damaged)
        let session = try #require(try reopen()[Self.story])
        #expect(session.props["name"] == "v3")  // restored up to the damage
        #expect(session.version == 4)  // the damaged version is not given again: the next change is 5
        #expect(setAsideLines() == [damaged.last!])
        // The next run finds a sound journal: the same state, nothing more set aside.
        let again = try #require(try reopen()[Self.story])
        #expect(again.version == 4 && again.props["name"] == "v3")
        #expect(setAsideLines() == [damaged.last!])
    }

    @Test func aDamagedLastLineWithoutAVersionCountsOnePastTheLastRecord() throws {
        let lines = try writeVersions(4)  // ..., version 4, version 5: the last two lines
        var damaged = lines
        damaged[damaged.count - 1] = damaged[damaged.count - 1].replacingOccurrences(of: #""version":5}"#, with: #""version":}"#)
        try write(damaged)
        let session = try #require(try reopen()[Self.story])  // the story it names: one past its version 4
        #expect(session.version == 5 && session.props["name"] == "v4")
        damaged[damaged.count - 1] = "\u{0}\u{0}"
        try write(damaged)
        let unnamed = try reopen()  // no story named: one past the record before it (version 4 of the same story)
        #expect(unnamed[Self.story]?.version == 5 && unnamed[Self.other]?.version == 2)
    }

    @Test func aStoryWhoseRecordsAreAllDamagedKeepsItsNumbering() throws {
        let lines = try writeVersions(3)
        let damaged = lines.map { $0.contains(Self.other) ? "#" + $0.dropFirst() : $0 }  // its snapshot and patch
        try write(damaged)
        let sessions = try reopen()
        #expect(sessions[Self.other]?.version == 2)  // its registered props again, the next change is 3
        #expect(sessions[Self.story]?.version == 4)
    }

    @Test func aFragmentGluedToARecordIsSalvaged() throws {
        let lines = try writeVersions(3)
        var glued = lines
        let last = glued.removeLast()
        glued[glued.count - 1] += "\n" + String(last.prefix(25)) + last  // a failed write, then the next record on the same line
        try write(glued)
        let session = try #require(try reopen()[Self.story])
        #expect(session.version == 4 && session.props["name"] == "v4")
    }

    @Test func aMissingOrReadOnlyStateDirectoryIsNamedAsSuch() throws {
        let missingParent = directory.appendingPathComponent("no/such/state")
        #expect(throws: JournalError.self) { try JournalError.check(directory: missingParent) }
        do {
            try JournalError.check(directory: missingParent)
        } catch {
            #expect(error.message.contains("is missing and cannot be created"))
        }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("plain-file")
        _ = FileManager.default.createFile(atPath: file.path, contents: Data())
        do {
            try JournalError.check(directory: file)
            Issue.record("a file is not a state directory")
        } catch {
            #expect(error.message.contains("is not a directory"))
        }
        #expect(JournalError.describe(errno: ENOSPC) == "the disk is full")
        #expect(JournalError.describe(errno: EROFS) == "the file system is read-only")
    }
}

extension JSONValue {
    /// The registered props as the session keeps them (decoded and re-encoded).
    fileprivate func canonicalForTest(_ catalog: Catalog) -> JSONValue {
        (try? StorySession(story: catalog.story(id: JournalDamageTests.story)!).props) ?? self
    }
}
