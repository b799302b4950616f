import DemoCatalog
import Foundation
@testable import PropsCatalog
import Testing

@Suite struct RecordingTests {
    let catalog = try! DemoCatalog.make()

    private func sessionWithEdits() throws -> StorySession {
        var session = try StorySession(story: #require(catalog.story(id: "profile-user-profile--default")), at: Date(timeIntervalSince1970: 100))
        for (index, name) in ["A", "B", "C"].enumerated() {
            let patch = try JSONPatch(json: [["op": "replace", "path": "/name", "value": .string(name)]])
            _ = session.apply(.patch(patch), source: .http, at: Date(timeIntervalSince1970: 101 + Double(index) * 2))
        }
        return session
    }

    @Test func exportsEveryVersionAndReadsBackTheSame() throws {
        let session = try sessionWithEdits()
        let recording = try Recording(session)
        #expect(recording.steps.map(\.version) == [1, 2, 3, 4])
        #expect(recording.steps.map { $0.props["name"] } == ["Ada Lovelace", "A", "B", "C"])
        let json = try JSONParser.parse(recording.json.serialized())
        let imported = try Recording(json: json, story: session.story.id, component: session.story.component)
        #expect(imported == recording)
    }

    @Test func aRangeOfVersions() throws {
        let recording = try Recording(try sessionWithEdits(), from: 2, to: 3)
        #expect(recording.steps.map(\.version) == [2, 3])
        let session = try sessionWithEdits()
        #expect(throws: RecordingError.self) { try Recording(session, from: 0, to: 3) }
        #expect(throws: RecordingError.self) { try Recording(session, from: 3, to: 9) }
        do { _ = try Recording(session, from: 3, to: 9) } catch { #expect(error.reason == .notRecorded && error.reason.rawValue == "not-found") }
    }

    @Test func delaysFollowTheRecordedPaceScaledAndCapped() throws {
        let recording = try Recording(try sessionWithEdits())
        #expect(recording.delays(speed: 1) == [0, 1, 2, 2])
        #expect(recording.delays(speed: 2) == [0, 0.5, 1, 1])
        #expect(recording.delays(speed: 1, maxGap: 1.5) == [0, 1, 1.5, 1.5])
        #expect(recording.delays(speed: 0) == [0, 0, 0, 0])
    }

    @Test func aBadEntryIsAClearErrorNamingIt() throws {
        let session = try sessionWithEdits()
        guard case .object(var json) = try Recording(session).json, var entries = json["entries"]?.arrayValue else {
            Issue.record("no entries"); return
        }
        entries[2] = ["at": "1970-01-01T00:01:43Z", "patch": [["op": "replace", "path": "/name", "value": 42]]]
        json["entries"] = .array(entries)
        do {
            _ = try Recording(json: .object(json), story: session.story.id, component: session.story.component)
            Issue.record("a recording with a bad entry was accepted")
        } catch {
            #expect(error.reason == .invalidProps)
            #expect(error.message.hasPrefix("entry 2"))
            #expect(error.path == "/entries/2/props/name")
        }
    }

    /// A recording of Profile props `count` entries long, each entry about 1,100 bytes of props
    /// (a long name) reached by a small patch.
    static func heavyRecording(entries count: Int) -> JSONValue {
        let base: JSONValue = ["name": .string(String(repeating: "n", count: 1_000)), "email": "e0", "avatarURL": nil]
        let entries = (0..<count).map { index -> JSONValue in
            let at = JSONValue.string(ISO8601.string(from: Date(timeIntervalSince1970: Double(index))))
            return index == 0 ? ["at": at] : ["at": at, "patch": [["op": "replace", "path": "/email", "value": .string("e\(index)")]]]
        }
        return ["v": 1, "base": base, "entries": .array(entries)]
    }

    @Test func oneBudgetCoversTheWholeRecording() throws {
        let component = try #require(catalog.component(id: "profile-user-profile"))
        let limit = JSONSizeLimit(weight: 10_000)
        // Every entry alone is far under the limit; eight of them together are too.
        let fits = try Recording(json: Self.heavyRecording(entries: 8), story: "s", component: component, limit: limit)
        #expect(fits.steps.count == 8)
        do {
            _ = try Recording(json: Self.heavyRecording(entries: 20), story: "s", component: component, limit: limit)
            Issue.record("a recording over the budget as a whole was accepted")
        } catch {
            #expect(error.reason == .tooLarge && error.contractCode == "too-large")
            #expect(error.path == "/entries/9")
            #expect(error.message.hasPrefix("entry 9: "))
        }
    }

    @Test func patchWorkCountsAgainstTheRecordingsBudget() throws {
        let component = try #require(catalog.component(id: "profile-user-profile"))
        // Every entry copies the long name into the email and puts the email back: work its props do not show.
        // 12 entries decode about 12,400 bytes of props, and their copies add 11,000 more.
        let name = JSONValue.string(String(repeating: "n", count: 1_000))
        let copying: JSONValue = [["op": "copy", "from": "/name", "path": "/email"], ["op": "replace", "path": "/email", "value": "e"]]
        let entries = (0..<12).map { index -> JSONValue in
            ["at": .string(ISO8601.string(from: Date(timeIntervalSince1970: Double(index)))), "patch": index == 0 ? [] : copying]
        }
        let json: JSONValue = ["v": 1, "base": ["name": name, "email": "e", "avatarURL": nil], "entries": .array(entries)]
        do {
            _ = try Recording(json: json, story: "s", component: component, limit: JSONSizeLimit(weight: 16_000))
            Issue.record("the copies' work was not counted")
        } catch {
            #expect(error.reason == .tooLarge)
        }
        #expect(try Recording(json: json, story: "s", component: component, limit: JSONSizeLimit(weight: 30_000)).steps.count == 12)
    }

    @Test func malformedRecordingsAreRefused() throws {
        let component = try #require(catalog.component(id: "profile-user-profile"))
        let cases: [(JSONValue, RecordingError.Reason)] = [
            ([], .malformed),
            (["v": 2, "base": [:], "entries": [["at": "1970-01-01T00:00:00Z"]]], .malformed),
            (["v": 1, "entries": [["at": "1970-01-01T00:00:00Z"]]], .malformed),
            (["v": 1, "base": ["name": "a", "email": "b", "avatarURL": nil], "entries": []], .malformed),
            (["v": 1, "base": ["name": "a", "email": "b", "avatarURL": nil], "entries": [["at": "yesterday"]]], .malformed),
            (["v": 1, "base": ["name": "a"], "entries": [["at": "1970-01-01T00:00:00Z"]]], .invalidProps),
            (["v": 1, "base": ["name": "a", "email": "b", "avatarURL": nil],
              "entries": [["at": "1970-01-01T00:00:00Z"], ["at": "1970-01-01T00:00:01Z", "patch": [["op": "remove", "path": "/nope"]]]]], .invalidPatch),
        ]
        for (json, code) in cases {
            #expect(throws: RecordingError.self) { try Recording(json: json, story: "s", component: component) }
            do { _ = try Recording(json: json, story: "s", component: component) } catch { #expect(error.reason == code, "\(json)") }
        }
    }
}
