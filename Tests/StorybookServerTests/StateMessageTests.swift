import DemoCatalog
import Foundation
import PropsCatalog
@testable import StorybookServer
import Testing

/// State messages are spliced from pre-serialized parts: they must still be canonical JSON (sorted
/// keys, the bytes `JSONValue` would give) with every member of the contract.
@Suite struct StateMessageTests {
    private func editedSession() throws -> StorySession {
        let catalog = try DemoCatalog.make()
        var session = try StorySession(story: #require(catalog.story(id: "profile-user-profile--default")))
        let patch = try JSONPatch(json: [["op": "replace", "path": "/name", "value": "<Grace> \"Hopper\"\n"]])
        _ = session.apply(.patch(patch), source: .webSocket(7), ref: "r1", at: Date(timeIntervalSince1970: 1_700_000_000.25))
        return session
    }

    private func parsedCanonically(_ bytes: [UInt8]) throws -> JSONValue {
        let value = try JSONParser.parse(String(decoding: bytes, as: UTF8.self))
        #expect(value.serializedBytes() == bytes, "not in canonical form")
        return value
    }

    @Test func theStateMessageCarriesEveryMemberAndItsCause() throws {
        let session = try editedSession()
        let message = try parsedCanonically(StateMessage(session).message(cause: session.history.entries.last.map(SerializedEntry.init)))
        let expected: JSONValue = [
            "type": "state", "story": "profile-user-profile--default", "version": 2,
            "props": session.props, "text": .string(session.projections.text), "html": .string(session.projections.html),
            "canUndo": true, "canRedo": false,
            "cause": ["kind": "patch", "source": "ws:7", "ref": "r1", "at": "2023-11-14T22:13:20.250Z"],
        ]
        #expect(message == expected)
    }

    @Test func aChangeIsSerializedAsItsValuesWouldBe() throws {
        let session = try editedSession()
        let plain = try #require(session.history.entries.last)
        let patch = try JSONPatch(json: [["op": "move", "from": "/a~1b", "path": "/<c>"], ["op": "add", "path": "/n", "value": ["z": 1, "a": nil]]])
        let author = ChangeAuthor(name: "Ada \"L\"", kind: .agent)
        let signed = HistoryEntry(version: 9, at: Date(timeIntervalSince1970: 1_700_000_000.000125), kind: .dispatch,
                                  source: ChangeSource("mcp", author: author), ref: "r\n2", command: Command("save"), patch: patch)
        for entry in [plain, signed] {
            let serialized = SerializedEntry(entry)
            #expect(serialized.patch == entry.patch.json.serializedBytes())
            #expect(serialized.at == JSONValue.string(ISO8601.string(from: entry.at)).serializedBytes())
            var cause: [String: JSONValue] = [
                "at": .string(ISO8601.string(from: entry.at)), "kind": .string(entry.kind.rawValue), "source": .string(entry.source.description),
            ]
            if let author = entry.source.author { cause["author"] = author.json }
            if let command = entry.command { cause["command"] = .string(command.name) }
            if let ref = entry.ref { cause["ref"] = .string(ref) }
            #expect(serialized.cause == JSONValue.object(cause).serializedBytes())
            // The journal's line is the same whether the change's bytes are spliced in or written anew.
            let record = JournalRecord(story: "s", entry: entry, content: .patch(entry.patch))
            #expect(record.line(splicing: serialized) == record.line)
        }
    }

    @Test func theResourceCarriesTheStoryAndNoCause() throws {
        let session = try editedSession()
        let resource = try parsedCanonically(StateMessage(session).resource)
        let expected: JSONValue = [
            "id": "profile-user-profile--default", "component": .string(session.story.component.id),
            "name": .string(session.story.name), "version": 2, "props": session.props,
            "text": .string(session.projections.text), "html": .string(session.projections.html),
            "canUndo": true, "canRedo": false,
        ]
        #expect(resource == expected)
        #expect(try parsedCanonically(StateMessage(session).message(cause: nil))["cause"] == nil)
    }
}
