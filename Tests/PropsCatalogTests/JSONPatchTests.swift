import Foundation
@testable import PropsCatalog
import Testing

/// Parses JSON text written in a test.
private func json(_ text: String) throws -> JSONValue {
    try JSONParser.parse(text)
}

/// Applies a patch given in its JSON text form.
private func apply(_ patch: String, to document: String) throws -> JSONValue {
    try JSONPatch(json: json(patch)).apply(to: json(document))
}

/// The error a patch given as JSON text throws when read or applied, or nil if it succeeds.
private func patchError(_ patch: String, on document: String) throws -> JSONPatchError? {
    let patchJSON = try json(patch)
    let documentJSON = try json(document)
    do {
        _ = try JSONPatch(json: patchJSON).apply(to: documentJSON)
        return nil
    } catch {
        return error
    }
}

// MARK: - RFC 6902 Appendix A

/// One example of RFC 6902 Appendix A, written out as in the RFC.
struct RFCExample: Sendable, CustomTestStringConvertible {
    enum Outcome: Sendable {
        case result(String)
        case error(JSONPatchError.Kind)
    }

    let section: String
    let document: String
    let patch: String
    let outcome: Outcome

    var testDescription: String { section }

    static let all: [RFCExample] = [
        RFCExample(
            section: "A.1. Adding an Object Member",
            document: #"{ "foo": "bar" }"#,
            patch: #"[ { "op": "add", "path": "/baz", "value": "qux" } ]"#,
            outcome: .result(#"{ "baz": "qux", "foo": "bar" }"#)
        ),
        RFCExample(
            section: "A.2. Adding an Array Element",
            document: #"{ "foo": [ "bar", "baz" ] }"#,
            patch: #"[ { "op": "add", "path": "/foo/1", "value": "qux" } ]"#,
            outcome: .result(#"{ "foo": [ "bar", "qux", "baz" ] }"#)
        ),
        RFCExample(
            section: "A.3. Removing an Object Member",
            document: #"{ "baz": "qux", "foo": "bar" }"#,
            patch: #"[ { "op": "remove", "path": "/baz" } ]"#,
            outcome: .result(#"{ "foo": "bar" }"#)
        ),
        RFCExample(
            section: "A.4. Removing an Array Element",
            document: #"{ "foo": [ "bar", "qux", "baz" ] }"#,
            patch: #"[ { "op": "remove", "path": "/foo/1" } ]"#,
            outcome: .result(#"{ "foo": [ "bar", "baz" ] }"#)
        ),
        RFCExample(
            section: "A.5. Replacing a Value",
            document: #"{ "baz": "qux", "foo": "bar" }"#,
            patch: #"[ { "op": "replace", "path": "/baz", "value": "boo" } ]"#,
            outcome: .result(#"{ "baz": "boo", "foo": "bar" }"#)
        ),
        RFCExample(
            section: "A.6. Moving a Value",
            document: #"{ "foo": { "bar": "baz", "waldo": "fred" }, "qux": { "corge": "grault" } }"#,
            patch: #"[ { "op": "move", "from": "/foo/waldo", "path": "/qux/thud" } ]"#,
            outcome: .result(#"{ "foo": { "bar": "baz" }, "qux": { "corge": "grault", "thud": "fred" } }"#)
        ),
        RFCExample(
            section: "A.7. Moving an Array Element",
            document: #"{ "foo": [ "all", "grass", "cows", "eat" ] }"#,
            patch: #"[ { "op": "move", "from": "/foo/1", "path": "/foo/3" } ]"#,
            outcome: .result(#"{ "foo": [ "all", "cows", "eat", "grass" ] }"#)
        ),
        RFCExample(
            section: "A.8. Testing a Value: Success",
            document: #"{ "baz": "qux", "foo": [ "a", 2, "c" ] }"#,
            patch: #"""
                [
                  { "op": "test", "path": "/baz", "value": "qux" },
                  { "op": "test", "path": "/foo/1", "value": 2 }
                ]
                """#,
            outcome: .result(#"{ "baz": "qux", "foo": [ "a", 2, "c" ] }"#)
        ),
        RFCExample(
            section: "A.9. Testing a Value: Error",
            document: #"{ "baz": "qux" }"#,
            patch: #"[ { "op": "test", "path": "/baz", "value": "bar" } ]"#,
            outcome: .error(.testFailed)
        ),
        RFCExample(
            section: "A.10. Adding a Nested Member Object",
            document: #"{ "foo": "bar" }"#,
            patch: #"[ { "op": "add", "path": "/child", "value": { "grandchild": { } } } ]"#,
            outcome: .result(#"{ "foo": "bar", "child": { "grandchild": { } } }"#)
        ),
        RFCExample(
            section: "A.11. Ignoring Unrecognized Elements",
            document: #"{ "foo": "bar" }"#,
            patch: #"[ { "op": "add", "path": "/baz", "value": "qux", "xyz": 123 } ]"#,
            outcome: .result(#"{ "foo": "bar", "baz": "qux" }"#)
        ),
        RFCExample(
            section: "A.12. Adding to a Nonexistent Target",
            document: #"{ "foo": "bar" }"#,
            patch: #"[ { "op": "add", "path": "/baz/bat", "value": "qux" } ]"#,
            outcome: .error(.invalidTarget)
        ),
        // JSONParser keeps the last of duplicate members, so this reads as `remove /baz`, which fails
        // because /baz does not exist: the document is still rejected, though not for its duplicate "op".
        RFCExample(
            section: "A.13. Invalid JSON Patch Document",
            document: #"{ "foo": "bar" }"#,
            patch: #"[ { "op": "add", "path": "/baz", "value": "qux", "op": "remove" } ]"#,
            outcome: .error(.invalidTarget)
        ),
        RFCExample(
            section: "A.14. ~ Escape Ordering",
            document: #"{ "/": 9, "~1": 10 }"#,
            patch: #"[ { "op": "test", "path": "/~01", "value": 10 } ]"#,
            outcome: .result(#"{ "/": 9, "~1": 10 }"#)
        ),
        RFCExample(
            section: "A.15. Comparing Strings and Numbers",
            document: #"{ "/": 9, "~1": 10 }"#,
            patch: #"[ { "op": "test", "path": "/~01", "value": "10" } ]"#,
            outcome: .error(.testFailed)
        ),
        RFCExample(
            section: "A.16. Adding an Array Value",
            document: #"{ "foo": ["bar"] }"#,
            patch: #"[ { "op": "add", "path": "/foo/-", "value": ["abc", "def"] } ]"#,
            outcome: .result(#"{ "foo": ["bar", ["abc", "def"]] }"#)
        ),
    ]
}

@Suite("JSONPatch: RFC 6902 Appendix A")
struct JSONPatchAppendixATests {
    @Test("every Appendix A example is here")
    func allSixteenExamples() {
        #expect(RFCExample.all.count == 16)
    }

    @Test(arguments: RFCExample.all)
    func example(_ example: RFCExample) throws {
        switch example.outcome {
        case .result(let expectedText):
            let expected = try json(expectedText)
            let result = try apply(example.patch, to: example.document)
            #expect(result.jsonEquals(expected), "got \(result)")
        case .error(let kind):
            let error = try #require(try patchError(example.patch, on: example.document))
            #expect(error.kind == kind, "\(error)")
            #expect(error.operationIndex == 0)
        }
    }
}

// MARK: - Conformance suite (json-patch-tests)

/// One record of the shared json-patch-tests conformance suite.
struct ConformanceRecord: Sendable, CustomTestStringConvertible {
    let file: String
    let position: Int
    let comment: String?
    let document: JSONValue
    let patch: JSONValue
    let expected: JSONValue?
    let error: String?

    var testDescription: String { "\(file)[\(position)]: \(comment ?? error ?? "(no comment)")" }
}

enum ConformanceSuite {
    /// The suite's files, both run in full.
    static let files = ["tests.json", "spec_tests.json"]

    /// `Tests/PropsCatalogTests/Fixtures/json-patch-tests`, a copy of the upstream suite kept in the
    /// repository (its README.md says where from and under which licence), found from this file.
    static let directory: URL = URL(fileURLWithPath: #filePath)
        .deletingLastPathComponent()  // Tests/PropsCatalogTests
        .appendingPathComponent("Fixtures/json-patch-tests", isDirectory: true)

    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    /// Every record of `file` that is not `disabled` and has an `expected` or an `error`.
    static func enabledRecords(in file: String) throws -> [ConformanceRecord] {
        let url = directory.appendingPathComponent(file)
        guard FileManager.default.fileExists(atPath: url.path) else {
            throw LoadError(description: """
                JSON Patch conformance suite not found at \(url.path): \
                the copy of json-patch-tests belongs in Tests/PropsCatalogTests/Fixtures
                """)
        }
        let data = try Data(contentsOf: url)
        guard case .array(let records) = try JSONParser.parse(data) else {
            throw LoadError(description: "\(url.path) is not an array of records")
        }
        return try records.enumerated().compactMap { position, record in
            guard case .object(let members) = record else {
                throw LoadError(description: "\(file)[\(position)] is not an object")
            }
            if members["disabled"] == .bool(true) { return nil }
            guard members["expected"] != nil || members["error"] != nil else { return nil }
            guard let document = members["doc"], let patch = members["patch"] else {
                throw LoadError(description: "\(file)[\(position)] has no 'doc' or 'patch'")
            }
            return ConformanceRecord(
                file: file, position: position, comment: members["comment"]?.stringValue,
                document: document, patch: patch, expected: members["expected"],
                error: members["error"]?.stringValue
            )
        }
    }

    /// The enabled records of every file; throws, failing the tests that use it, when the suite is missing.
    static func allEnabledRecords() throws -> [ConformanceRecord] {
        try files.flatMap { try enabledRecords(in: $0) }
    }
}

@Suite("JSONPatch: json-patch-tests conformance")
struct JSONPatchConformanceTests {
    @Test("the conformance suite is present and has records", arguments: ConformanceSuite.files)
    func suiteIsPresent(file: String) throws {
        let records = try ConformanceSuite.enabledRecords(in: file)
        #expect(!records.isEmpty, "\(file) has no enabled records")
        #expect(records.contains { $0.expected != nil } && records.contains { $0.error != nil })
    }

    @Test(arguments: try ConformanceSuite.allEnabledRecords())
    func record(_ record: ConformanceRecord) {
        let outcome = Result { () throws(JSONPatchError) in
            try JSONPatch(json: record.patch).apply(to: record.document)
        }
        switch (outcome, record.expected) {
        case (.success(let result), let expected?):
            #expect(result.jsonEquals(expected), "\(record.testDescription): got \(result), expected \(expected)")
        case (.failure(let error), _?):
            Issue.record("\(record.testDescription): unexpected error: \(error)")
        case (.success(let result), nil):
            Issue.record("\(record.testDescription): should fail (\(record.error ?? "")) but gave \(result)")
        case (.failure, nil):
            break
        }
    }
}

// MARK: - Semantics and errors

@Suite("JSONPatch: semantics")
struct JSONPatchSemanticsTests {
    @Test func errorNamesTheOperationAndPath() throws {
        let patch = #"""
            [
              { "op": "test", "path": "/id", "value": 7 },
              { "op": "add", "path": "/tags/-", "value": "new" },
              { "op": "replace", "path": "/name", "value": "Ada" }
            ]
            """#
        let error = try #require(try patchError(patch, on: #"{ "id": 7, "tags": [] }"#))
        #expect(error.kind == .invalidTarget)
        #expect(error.operationIndex == 2)
        #expect(error.path == "/name")
        #expect(error.message == "operation 2 (replace): /name does not exist")
        #expect(error.description == error.message)
    }

    @Test func failedTestIsItsOwnKind() throws {
        let error = try #require(try patchError(#"[{ "op": "test", "path": "/version", "value": 3 }]"#, on: #"{ "version": 4 }"#))
        #expect(error.kind == .testFailed)
        #expect(error.operationIndex == 0)
        #expect(error.path == "/version")
        #expect(error.message == "operation 0 (test): /version is 4, expected 3")

        let missing = try #require(try patchError(#"[{ "op": "test", "path": "/version", "value": 3 }]"#, on: "{}"))
        #expect(missing.kind == .testFailed)
    }

    @Test func testComparesAsJSON() throws {
        let document = #"{ "n": 1, "o": { "a": [1.0, { "x": null, "y": true }], "b": "s" } }"#
        let patch = #"""
            [
              { "op": "test", "path": "/n", "value": 1.0 },
              { "op": "test", "path": "/o", "value": { "b": "s", "a": [1, { "y": true, "x": null }] } },
              { "op": "test", "path": "", "value": { "o": { "b": "s", "a": [1, { "y": true, "x": null }] }, "n": 1e0 } }
            ]
            """#
        #expect(try apply(patch, to: document).jsonEquals(json(document)))
        #expect(try patchError(#"[{ "op": "test", "path": "/n", "value": "1" }]"#, on: document)?.kind == .testFailed)
        #expect(try patchError(#"[{ "op": "test", "path": "/o/a", "value": [1] }]"#, on: document)?.kind == .testFailed)
    }

    @Test func rootPath() throws {
        #expect(try apply(#"[{ "op": "add", "path": "", "value": [1] }]"#, to: #"{ "a": 1 }"#) == [1])
        #expect(try apply(#"[{ "op": "replace", "path": "", "value": "s" }]"#, to: "[]") == "s")
        let error = try #require(try patchError(#"[{ "op": "remove", "path": "" }]"#, on: #"{ "a": 1 }"#))
        #expect(error.kind == .invalidTarget)
        #expect(error.path == "")
    }

    @Test func arrayIndices() throws {
        let document = #"{ "a": [0, 1, 2] }"#
        #expect(try apply(#"[{ "op": "add", "path": "/a/3", "value": 3 }]"#, to: document) == ["a": [0, 1, 2, 3]])
        #expect(try apply(#"[{ "op": "add", "path": "/a/-", "value": 3 }]"#, to: document) == ["a": [0, 1, 2, 3]])
        #expect(try apply(#"[{ "op": "add", "path": "/a/0", "value": 9 }]"#, to: document) == ["a": [9, 0, 1, 2]])
        #expect(try apply(#"[{ "op": "replace", "path": "/a/2", "value": 9 }]"#, to: document) == ["a": [0, 1, 9]])
        #expect(try apply(#"[{ "op": "remove", "path": "/a/2" }]"#, to: document) == ["a": [0, 1]])

        let failing = [
            #"[{ "op": "add", "path": "/a/4", "value": 3 }]"#,
            #"[{ "op": "add", "path": "/a/01", "value": 3 }]"#,
            #"[{ "op": "add", "path": "/a/-1", "value": 3 }]"#,
            #"[{ "op": "add", "path": "/a/x", "value": 3 }]"#,
            #"[{ "op": "replace", "path": "/a/3", "value": 3 }]"#,
            #"[{ "op": "replace", "path": "/a/-", "value": 3 }]"#,
            #"[{ "op": "remove", "path": "/a/3" }]"#,
            #"[{ "op": "remove", "path": "/a/-" }]"#,
            #"[{ "op": "remove", "path": "/a/00" }]"#,
            #"[{ "op": "copy", "from": "/a/-", "path": "/b" }]"#,
            #"[{ "op": "add", "path": "/a/-/x", "value": 3 }]"#,
        ]
        for patch in failing {
            let error = try patchError(patch, on: document)
            #expect(error?.kind == .invalidTarget, "\(patch)")
        }
        #expect(try patchError(#"[{ "op": "test", "path": "/a/01", "value": 1 }]"#, on: document)?.kind == .testFailed)
    }

    @Test func addToObjectReplacesAndNeverCreatesParents() throws {
        #expect(try apply(#"[{ "op": "add", "path": "/a", "value": 2 }]"#, to: #"{ "a": 1 }"#) == ["a": 2])
        #expect(try apply(#"[{ "op": "add", "path": "/-", "value": 2 }]"#, to: "{}") == ["-": 2])
        #expect(try patchError(#"[{ "op": "add", "path": "/a/b/c", "value": 2 }]"#, on: #"{ "a": {} }"#)?.kind == .invalidTarget)
        #expect(try patchError(#"[{ "op": "add", "path": "/a/b", "value": 2 }]"#, on: #"{ "a": "s" }"#)?.kind == .invalidTarget)
        #expect(try patchError(#"[{ "op": "replace", "path": "/b", "value": 2 }]"#, on: #"{ "a": 1 }"#)?.kind == .invalidTarget)
    }

    @Test func moveAndCopy() throws {
        let document = #"{ "a": { "b": [1, 2] }, "c": 3 }"#
        #expect(try apply(#"[{ "op": "move", "from": "/a/b", "path": "/d" }]"#, to: document) == ["a": [:], "c": 3, "d": [1, 2]])
        #expect(try apply(#"[{ "op": "move", "from": "/a", "path": "/a" }]"#, to: document).jsonEquals(json(document)))
        #expect(try apply(#"[{ "op": "move", "from": "/c", "path": "/a/b/0" }]"#, to: document) == ["a": ["b": [3, 1, 2]]])
        #expect(try apply(#"[{ "op": "copy", "from": "/a", "path": "/a/e" }]"#, to: document) == ["a": ["b": [1, 2], "e": ["b": [1, 2]]], "c": 3])
        #expect(try apply(#"[{ "op": "copy", "from": "", "path": "/z" }]"#, to: #"{ "c": 3 }"#) == ["c": 3, "z": ["c": 3]])

        let intoChild = try #require(try patchError(#"[{ "op": "move", "from": "/a", "path": "/a/b/x" }]"#, on: document))
        #expect(intoChild.kind == .invalidTarget)
        #expect(intoChild.message == "operation 0 (move): cannot move /a into its own child /a/b/x")
        #expect(try patchError(#"[{ "op": "move", "from": "", "path": "/x" }]"#, on: document)?.kind == .invalidTarget)
        #expect(try patchError(#"[{ "op": "move", "from": "/x", "path": "/x" }]"#, on: document)?.kind == .invalidTarget)
        #expect(try patchError(#"[{ "op": "move", "from": "/x", "path": "/y" }]"#, on: document)?.kind == .invalidTarget)
        #expect(try patchError(#"[{ "op": "copy", "from": "/a/x", "path": "/y" }]"#, on: document)?.kind == .invalidTarget)
        // A `/a` prefix that is not a path prefix is fine.
        #expect(try apply(#"[{ "op": "move", "from": "/a", "path": "/ab" }]"#, to: document) == ["ab": ["b": [1, 2]], "c": 3])
    }

    @Test func allOrNothing() throws {
        let document = try json(#"{ "a": 1 }"#)
        let patch = try JSONPatch(json: json(#"""
            [
              { "op": "add", "path": "/b", "value": 2 },
              { "op": "remove", "path": "/a" },
              { "op": "remove", "path": "/missing" }
            ]
            """#))
        #expect(throws: JSONPatchError.self) { try patch.apply(to: document) }
        #expect(document == ["a": 1])
        #expect(try JSONPatch(operations: Array(patch.operations.prefix(2))).apply(to: document) == ["b": 2])
    }

    @Test func emptyPatchIsIdentity() throws {
        let document = try json(#"{ "a": [1, { "b": null }] }"#)
        #expect(try JSONPatch(operations: []).apply(to: document) == document)
        #expect(try JSONPatch(json: []).operations.isEmpty)
    }
}

@Suite("JSONPatch: reading and writing patches")
struct JSONPatchParsingTests {
    @Test func readsEveryOperation() throws {
        let patch = try JSONPatch(json: json(#"""
            [
              { "op": "add", "path": "/a~1b/-", "value": { "x": 1 } },
              { "op": "remove", "path": "/m~0n" },
              { "op": "replace", "path": "", "value": null, "extra": [1, 2] },
              { "op": "move", "from": "/a", "path": "/b" },
              { "op": "copy", "from": "/b", "path": "/c", "value": "ignored" },
              { "op": "test", "path": "/c", "value": [] }
            ]
            """#))
        #expect(patch.operations == [
            .add(path: JSONPointer(tokens: ["a/b", "-"]), value: ["x": 1]),
            .remove(path: JSONPointer(tokens: ["m~n"])),
            .replace(path: JSONPointer(), value: nil),
            .move(from: JSONPointer(tokens: ["a"]), path: JSONPointer(tokens: ["b"])),
            .copy(from: JSONPointer(tokens: ["b"]), path: JSONPointer(tokens: ["c"])),
            .test(path: JSONPointer(tokens: ["c"]), value: []),
        ])
        #expect(try JSONPatch(json: patch.json) == patch)
        #expect(patch.operations[0].json == ["op": "add", "path": "/a~1b/-", "value": ["x": 1]])
        #expect(patch.operations[3].json == ["op": "move", "from": "/a", "path": "/b"])
        #expect(patch.operations[2].json == ["op": "replace", "path": "", "value": nil])
    }

    @Test(arguments: [
        (#"{ "op": "add", "path": "/a", "value": 1 }"#, "a JSON Patch must be an array of operations, not an object"),
        (#"[1]"#, "operation 0: an operation must be an object, not a number"),
        (#"[{ "path": "/a" }]"#, "operation 0: missing 'op' member"),
        (#"[{ "op": 1, "path": "/a" }]"#, "operation 0: 'op' must be a string, not a number"),
        (#"[{ "op": "spam", "path": "/a" }]"#, "operation 0: unknown op 'spam' (expected add, remove, replace, move, copy or test)"),
        (#"[{ "op": "remove", "path": "/a" }, { "op": "add", "value": 1 }]"#, "operation 1 (add): missing 'path' member"),
        (#"[{ "op": "add", "path": null, "value": 1 }]"#, "operation 0 (add): 'path' must be a string, not null"),
        (#"[{ "op": "add", "path": "a", "value": 1 }]"#, "operation 0 (add): 'path' is not a JSON Pointer: a JSON Pointer starts with '/'"),
        (#"[{ "op": "remove", "path": "/a~2" }]"#, "operation 0 (remove): 'path' is not a JSON Pointer: '~' must be followed by '0' or '1'"),
        (#"[{ "op": "add", "path": "/a" }]"#, "operation 0 (add): missing 'value' member"),
        (#"[{ "op": "replace", "path": "/a" }]"#, "operation 0 (replace): missing 'value' member"),
        (#"[{ "op": "test", "path": "/a" }]"#, "operation 0 (test): missing 'value' member"),
        (#"[{ "op": "move", "path": "/a" }]"#, "operation 0 (move): missing 'from' member"),
        (#"[{ "op": "copy", "from": "b", "path": "/a" }]"#, "operation 0 (copy): 'from' is not a JSON Pointer: a JSON Pointer starts with '/'"),
    ])
    func rejectsMalformedPatches(patch: String, message: String) throws {
        let patchJSON = try json(patch)
        let error = try #require(throws: JSONPatchError.self) { try JSONPatch(json: patchJSON) }
        #expect(error.kind == .malformed)
        #expect(error.message == message)
    }

    @Test(arguments: [
        ([], ""), ([""], "/"), (["a", "0"], "/a/0"), (["a/b"], "/a~1b"), (["m~n"], "/m~0n"),
        (["~1"], "/~01"), (["/~/"], "/~1~0~1"), (["é/ü", "x"], "/é~1ü/x"), (["", ""], "//"),
        (["a/\u{301}"], "/a~1\u{301}"),  // a combining mark after '/' or '~' does not hide it (RFC 6901 reads code points)
    ])
    func pointerTextEscapesEveryTildeAndSlash(tokens: [String], text: String) throws {
        let pointer = JSONPointer(tokens: tokens)
        #expect(pointer.description == text)
        #expect(try JSONPointer(parsing: text) == pointer)
    }

    @Test(arguments: ["a", "/~", "/a~", "/~2", "/a/~x/b", "/é~é", "/~\u{301}"])
    func pointerTextWithAnUnescapedTildeOrNoLeadingSlashIsRefused(text: String) {
        #expect(throws: JSONPointerError.self) { try JSONPointer(parsing: text) }
    }

    @Test func malformedErrorCarriesIndexAndPath() throws {
        let patchJSON = try json(#"[{ "op": "test", "path": "/a", "value": 1 }, { "op": "add", "path": "/b/c" }]"#)
        let error = try #require(throws: JSONPatchError.self) { try JSONPatch(json: patchJSON) }
        #expect(error.operationIndex == 1)
        #expect(error.path == "/b/c")
    }
}

// MARK: - Diff

@Suite("JSONPatch: diff")
struct JSONPatchDiffTests {
    static let pairs: [(String, String)] = [
        (#"{}"#, #"{}"#),
        (#"{ "a": 1 }"#, #"{ "b": 2 }"#),
        (
            #"{ "title": "Login", "input": { "_0": { "username": { "value": "ada", "focus": true } } }, "n": 1 }"#,
            #"{ "title": "Login", "input": { "_0": { "username": { "value": "ada!", "error": null } } }, "n": 1.5 }"#
        ),
        (
            #"{ "rows": [{ "id": 1, "tags": ["a"] }, { "id": 2, "tags": [] }], "meta": { "page": 1 } }"#,
            #"{ "rows": [{ "id": 1, "tags": ["a", "b"] }, { "id": 3, "tags": [] }], "meta": { "page": 2, "of": 9 } }"#
        ),
        (#"{ "list": [1, 2, 3] }"#, #"{ "list": [1, 2] }"#),
        (#"[1, [2, [3, { "x": 4 }]]]"#, #"[1, [2, [3, { "x": [4] }]]]"#),
        (#"{ "a": { "b": 1 } }"#, #"{ "a": [{ "b": 1 }] }"#),
        (#"{ "a/b": { "~": 1 }, "": 0 }"#, #"{ "a/b": { "~": 2 }, "": [] }"#),
        (#"[]"#, #"{ "a": 1 }"#),
        (#""scalar""#, #"{ "nested": { "deep": [null, true, false, -1.25e3] } }"#),
    ]

    @Test(arguments: pairs)
    func roundTrip(from sourceText: String, to targetText: String) throws {
        let source = try json(sourceText)
        let target = try json(targetText)
        let patch = JSONPatch.diff(from: source, to: target)
        #expect(try patch.apply(to: source).jsonEquals(target), "\(patch.json)")
        #expect(try patch.apply(to: source) == target)
        // What is stored is the JSON form: it must read back to the same patch.
        #expect(try JSONPatch(json: json(patch.json.serialized())) == patch)
        #expect(JSONPatch.diff(from: target, to: target).operations.isEmpty)
    }

    @Test func patchesAreSmall() throws {
        let source = try json(#"{ "a": { "b": { "c": 1, "d": [1, 2, 3] } }, "gone": true, "same": [1] }"#)
        let target = try json(#"{ "a": { "b": { "c": 2, "d": [1, 5, 3] } }, "new": "x", "same": [1] }"#)
        #expect(JSONPatch.diff(from: source, to: target).operations == [
            .remove(path: JSONPointer(tokens: ["gone"])),
            .replace(path: JSONPointer(tokens: ["a", "b", "c"]), value: 2),
            .replace(path: JSONPointer(tokens: ["a", "b", "d", "1"]), value: 5),
            .add(path: JSONPointer(tokens: ["new"]), value: "x"),
        ])
        #expect(JSONPatch.diff(from: [1, 2], to: [1, 2, 3]).operations == [.add(path: JSONPointer(tokens: ["2"]), value: 3)])
        #expect(JSONPatch.diff(from: 1, to: 2).operations == [.replace(path: JSONPointer(), value: 2)])
    }
}

/// The diff of arrays whose length changed: an item inserted into or removed from a long list is one
/// operation, not the whole list; whatever the edit, the patch makes the new array of the old one.
@Suite struct JSONPatchArrayDiffTests {
    private static func item(_ id: Int) -> JSONValue { ["id": .integer(Int64(id)), "title": .string("Item \(id)")] }
    private static let list = JSONValue.array((0..<500).map(item))

    @Test func anInsertedOrRemovedItemIsOneOperation() throws {
        guard case .array(var items) = Self.list else { return }
        items.insert(Self.item(1000), at: 0)
        let inserted = JSONPatch.diff(from: ["items": Self.list], to: ["items": .array(items)])
        #expect(inserted.operations == [.add(path: JSONPointer(tokens: ["items", "0"]), value: Self.item(1000))])
        items.remove(at: 251)
        let removed = JSONPatch.diff(from: ["items": .array(items)], to: ["items": .array(items.enumerated().filter { $0.offset != 100 }.map(\.element))])
        #expect(removed.operations == [.remove(path: JSONPointer(tokens: ["items", "100"]))])
    }

    @Test func randomEditsOfArraysApplyToTheNewArray() throws {
        var random = SeededGenerator(seed: 6902)
        for _ in 0..<500 {
            let old = (0..<Int.random(in: 0...30, using: &random)).map { _ in Self.item(Int.random(in: 0..<8, using: &random)) }
            var new = old
            for _ in 0..<Int.random(in: 1...4, using: &random) {
                switch Int.random(in: 0..<3, using: &random) {
                case 0: new.insert(Self.item(Int.random(in: 0..<8, using: &random)), at: Int.random(in: 0...new.count, using: &random))
                case 1 where !new.isEmpty: new.remove(at: Int.random(in: 0..<new.count, using: &random))
                default: if !new.isEmpty { new[Int.random(in: 0..<new.count, using: &random)] = Self.item(99) }
                }
            }
            let patch = JSONPatch.diff(from: .array(old), to: .array(new))
            let applied = try patch.apply(to: .array(old))
            #expect(applied.isIdentical(to: .array(new)), "\(old) -> \(new): \(patch)")
        }
        // Past the limit, the array is replaced whole.
        let many = JSONPatch.diff(from: .array([]), to: .array((0..<(JSONPatch.arrayEditLimit + 1)).map(Self.item)))
        #expect(many.operations.count == 1)
    }
}
