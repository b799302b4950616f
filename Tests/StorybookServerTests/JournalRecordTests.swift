import Foundation
import PropsCatalog
@testable import StorybookServer
import Testing

/// Journal lines are written member by member: they must stay canonical JSON that reads back as the
/// same record.
@Suite struct JournalRecordTests {
    private let patch = try! JSONPatch(json: [["op": "replace", "path": "/name", "value": "Grace \"<b>\""]])

    private func roundTrip(_ record: JournalRecord) throws -> JournalRecord? {
        let line = record.line
        #expect(line.last == 0x0A)
        let json = try JSONParser.parse(line.dropLast())
        #expect(json.serializedBytes() == Array(line.dropLast()), "not in canonical form")
        return JournalRecord(json: json)
    }

    @Test func aPatchRecordWithEveryOptionalMemberReadsBack() throws {
        let entry = HistoryEntry(version: 7, at: Date(timeIntervalSince1970: 1_700_000_000.5), kind: .dispatch,
                                 source: .webSocket(3), ref: "r-1", command: Command("select:boston-common"), patch: patch)
        let record = JournalRecord(story: "maps-location-picker--default", entry: entry, content: .patch(patch))
        #expect(try roundTrip(record) == record)
    }

    @Test func aPropsRecordWithoutOptionalMembersReadsBack() throws {
        let entry = HistoryEntry(version: 1, at: Date(timeIntervalSince1970: 0), kind: .registered, source: .registration,
                                 ref: nil, command: nil, patch: JSONPatch(operations: []))
        let record = JournalRecord(story: "s", entry: entry, content: .props(["name": "Ada", "tags": [1, 2.5, nil]]))
        #expect(try roundTrip(record) == record)
        #expect(String(decoding: record.line, as: UTF8.self).hasPrefix(#"{"at":"1970-01-01T00:00:00Z","kind":"registered","props":"#))
    }

    @Test func theAuthorIsWrittenAndReadBack() throws {
        let author = ChangeAuthor(name: "claude-code", kind: .agent)
        let entry = HistoryEntry(version: 3, at: Date(timeIntervalSince1970: 1_700_000_000), kind: .patch,
                                 source: ChangeSource("mcp:claude-code", author: author), ref: nil, command: nil, patch: patch)
        let record = JournalRecord(story: "s", entry: entry, content: .patch(patch))
        let read = try roundTrip(record)
        #expect(read == record)
        #expect(read?.entry.source.author == author)
        #expect(String(decoding: record.line, as: UTF8.self).contains(#""author":{"kind":"agent","name":"claude-code"}"#))
    }

    @Test func aLineWrittenBeforeAttributionStillReads() throws {
        let line = #"{"at":"2026-11-20T10:00:00Z","kind":"patch","patch":[{"op":"replace","path":"/name","value":"B"}],"source":"ws:4","story":"s","version":2}"#
        let record = try #require(JournalRecord(json: try JSONParser.parse(line)))
        #expect(record.entry.source.description == "ws:4")
        #expect(record.entry.source.author == nil)
        #expect(record.entry.json["author"] == nil)
    }
}
