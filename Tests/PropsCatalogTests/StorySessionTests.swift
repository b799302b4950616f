import DemoCatalog
import Foundation
@testable import PropsCatalog
import Testing

@Suite struct StorySessionTests {
    let catalog = try! DemoCatalog.make()

    private func session(_ id: String = "profile-user-profile--default") throws -> StorySession {
        try StorySession(story: #require(catalog.story(id: id)))
    }

    private func change(_ outcome: Result<EditOutcome, EditError>) throws -> Change {
        guard case .changed(let change) = try outcome.get() else { throw EditError(.conflict, "unchanged") }
        return change
    }

    @Test func startsAtVersionOneWithTheRegisteredProps() throws {
        let session = try session()
        #expect(session.version == 1)
        #expect(session.props["name"] == "Ada Lovelace")
        #expect(session.projections.text.contains("Ada Lovelace"))
        #expect(session.history.entries.map(\.kind) == [.registered])
    }

    @Test func everyAcceptedChangeAddsOneVersion() throws {
        var session = try session()
        let replaced = try change(session.apply(.replace(["name": "Grace", "email": "g@x", "avatarURL": nil]), source: .http, ref: "r1"))
        #expect(replaced.version == 2)
        #expect(replaced.projections.text.contains("Grace"))
        #expect(replaced.entry.ref == "r1")
        let patch = try JSONPatch(json: [["op": "replace", "path": "/email", "value": "grace@example.com"]])
        #expect(try change(session.apply(.patch(patch), source: .webSocket(7))).version == 3)
        #expect(try change(session.apply(.reset, source: .http)).version == 4)
        #expect(session.props == catalog.story(id: "profile-user-profile--default")!.props)
        #expect(session.history.entries.map(\.kind) == [.registered, .replace, .patch, .reset])
        #expect(session.history.entries[2].source.description == "ws:7")
    }

    /// After an edit kept as sent, the next patch charges the props' weight measured by that edit's
    /// size check instead of walking them again: the limit refuses exactly what measuring anew refuses.
    @Test func patchesAfterAnEditAreBoundedByTheMeasuredWeight() throws {
        let grow = { (length: Int) in
            try JSONPatch(json: [["op": "replace", "path": "/email", "value": .string(String(repeating: "e", count: length))]])
        }
        for weight in [150, 200, 260] {
            let limit = JSONSizeLimit(weight: weight)
            var session = try session()
            // Measured by this edit's size check, kept as sent.
            _ = try change(session.apply(.patch(grow(10)), source: .http, limit: limit))
            var outcomes: Set<Bool> = []
            for length in stride(from: 0, through: 200, by: 7) {
                let patch = try grow(length)
                let expected = (try? patch.apply(to: session.props, limit: limit)).map { $0.fits(limit) } ?? false
                let outcome = session.prepare(.patch(patch), source: .http, limit: limit)
                outcomes.insert(expected)
                switch outcome {
                case .success: #expect(expected, "weight \(weight), length \(length): accepted but over the limit")
                case .failure(let error):
                    #expect(!expected, "weight \(weight), length \(length): refused (\(error.message)) within the limit")
                    #expect(error.code == .tooLarge)
                }
            }
            #expect(outcomes == [true, false], "weight \(weight): both sides of the limit are tried")
        }
    }

    /// The weight a session keeps is its live props' own, whatever changed them, or none.
    @Test func theMeasuredWeightIsAlwaysTheLivePropsOwnOrNone() throws {
        let limit = JSONSizeLimit(weight: 10_000)
        var session = try session()
        #expect(session.measuredWeight == nil)  // registered props: never measured
        let check = { (session: StorySession, label: String) in
            guard let measured = session.measuredWeight else { return }
            #expect(measured.limit == limit, "\(label)")
            #expect(measured.weight == session.props.weight(within: limit), "\(label)")
        }
        let rename = try JSONPatch(json: [["op": "replace", "path": "/name", "value": "Grace Brewster Murray Hopper"]])
        _ = try change(session.apply(.patch(rename), source: .http, limit: limit))
        #expect(session.measuredWeight != nil)  // kept as sent: measured
        check(session, "patch")
        // Undo then redo (a patch in between would leave nothing to redo), then each other kind of
        // change followed by a patch, which charges what that change left.
        let edits: [(String, Edit, patchAfter: Bool)] = [
            ("undo", .undo, false), ("redo", .redo, true), ("undo", .undo, true), ("seek", .seek(version: 1), true),
            ("reset", .reset, true), ("replace", .replace(["name": "Ada", "email": "a@x", "avatarURL": nil]), true),
            ("patch", .patch(try JSONPatch(json: [["op": "replace", "path": "/email", "value": "ada@example.org"]])), true),
        ]
        for (label, edit, patchAfter) in edits {
            _ = try change(session.apply(edit, source: .http, limit: limit))
            check(session, label)
            guard patchAfter else { continue }
            _ = try change(session.apply(.patch(rename), source: .http, limit: limit))
            check(session, "patch after \(label)")
            #expect(session.measuredWeight != nil, "patch after \(label)")
        }
    }

    @Test func rejectedEditsChangeNothing() throws {
        var session = try session()
        let before = session.props
        let invalid = session.apply(.replace(["name": 1, "email": "x", "avatarURL": nil]), source: .http)
        #expect(invalid.failure?.code == .invalidProps)
        #expect(invalid.failure?.path == "/name")
        let failedTest = session.apply(.patch(try JSONPatch(json: [["op": "test", "path": "/name", "value": "Nobody"]])), source: .http)
        #expect(failedTest.failure?.code == .testFailed)
        let missing = session.apply(.patch(try JSONPatch(json: [["op": "remove", "path": "/nope"]])), source: .http)
        #expect(missing.failure?.code == .invalidPatch)
        let stale = session.apply(.reset, base: 9, source: .http)
        #expect(stale.failure?.code == .conflict)
        #expect(session.version == 1)
        #expect(session.props == before)
        #expect(session.history.entries.count == 1)
    }

    @Test func baseMustBeTheLiveVersion() throws {
        var session = try session()
        #expect(throws: Never.self) { try change(session.apply(.reset, base: 1, source: .http)) }
        #expect(session.apply(.reset, base: 1, source: .http).failure?.code == .conflict)
    }

    @Test func undoRedoAndSeekMakeNewVersions() throws {
        var session = try session()
        _ = try change(session.apply(.patch(try JSONPatch(json: [["op": "replace", "path": "/name", "value": "B"]])), source: .http))
        _ = try change(session.apply(.patch(try JSONPatch(json: [["op": "replace", "path": "/name", "value": "C"]])), source: .http))
        #expect(try change(session.apply(.undo, source: .http)).props["name"] == "B")
        #expect(try change(session.apply(.undo, source: .http)).props["name"] == "Ada Lovelace")
        #expect(session.apply(.undo, source: .http).failure?.code == .conflict)
        #expect(try change(session.apply(.redo, source: .http)).props["name"] == "B")
        let sought = try change(session.apply(.seek(version: 3), source: .http))
        #expect(sought.props["name"] == "C")
        #expect(sought.version == 7)
        #expect(session.apply(.redo, source: .http).failure?.code == .conflict)
        #expect(session.apply(.seek(version: 99), source: .http).failure?.code == .unknownVersion)
        #expect(session.history.entries.map(\.kind) == [.registered, .patch, .patch, .undo, .undo, .redo, .seek])
    }

    /// A replay's steps are changes like any other: undo takes back the last one, not the edit made
    /// before the replay (which left undo a step behind, or with nothing to undo on a story whose
    /// only changes were a replay's).
    @Test func undoTakesBackAReplaysStepsOneAtATime() throws {
        var session = try session()
        _ = try change(session.apply(.patch(try JSONPatch(json: [["op": "replace", "path": "/name", "value": "B"]])), source: .http))
        let named = { (name: String) -> JSONValue in ["name": .string(name), "email": "ada@example.com", "avatarURL": nil] }
        for name in ["R1", "R2"] {
            _ = try change(session.apply(.replay(named(name)), source: .replay))
        }
        #expect(session.canUndo && !session.canRedo)
        #expect(try change(session.apply(.undo, source: .http)).props["name"] == "R1")
        #expect(try change(session.apply(.undo, source: .http)).props["name"] == "B")
        #expect(try change(session.apply(.undo, source: .http)).props["name"] == "Ada Lovelace")
        #expect(try change(session.apply(.redo, source: .http)).props["name"] == "B")
        _ = try change(session.apply(.replay(named("R3")), source: .replay))
        #expect(!session.canRedo)  // a replay's step, like any change, ends what redo had
    }

    /// A run of typing sent with one `undoGroup` is one step for undo and redo; another source's
    /// change, a change without the group or an undo in between ends the run.
    @Test func changesOfOneUndoGroupAreOneStep() throws {
        var session = try session()
        let name = { (value: String) throws -> Edit in .patch(try JSONPatch(json: [["op": "replace", "path": "/name", "value": .string(value)]])) }
        let typist = ChangeSource.webSocket(1)
        _ = try change(session.apply(try name("B"), source: typist))
        for typed in ["H", "He", "Hel"] {
            _ = try change(session.apply(try name(typed), source: typist, undoGroup: "run-1"))
        }
        #expect(try change(session.apply(.undo, source: typist)).props["name"] == "B")
        #expect(try change(session.apply(.redo, source: typist)).props["name"] == "Hel")
        // The same group after the redo is a new step.
        _ = try change(session.apply(try name("Help"), source: typist, undoGroup: "run-1"))
        #expect(try change(session.apply(.undo, source: typist)).props["name"] == "Hel")

        // Another window's change ends the run; so does a change of another group.
        _ = try change(session.apply(try name("W"), source: typist, undoGroup: "run-2"))
        _ = try change(session.apply(try name("Wo"), source: typist, undoGroup: "run-2"))
        _ = try change(session.apply(try name("Wo!"), source: .webSocket(2), undoGroup: "run-2"))
        _ = try change(session.apply(try name("Wor"), source: typist, undoGroup: "run-2"))
        _ = try change(session.apply(try name("Word"), source: typist, undoGroup: "run-3"))
        #expect(try change(session.apply(.undo, source: typist)).props["name"] == "Wor")
        #expect(try change(session.apply(.undo, source: typist)).props["name"] == "Wo!")
        #expect(try change(session.apply(.undo, source: typist)).props["name"] == "Wo")
        #expect(try change(session.apply(.undo, source: typist)).props["name"] == "Hel")
        #expect(session.history.entries.last?.kind == .undo)  // every keystroke is still its own version
    }

    /// A run of typing longer than the history keeps: once the version before it is dropped, the run
    /// goes on as a new step, so undo never finds nothing to go back to right after typing.
    @Test func anUndoGroupLongerThanTheHistoryKeepsSomethingToUndo() throws {
        var session = try StorySession(story: #require(catalog.story(id: "profile-user-profile--default")), history: StoryHistory(capacity: 10))
        var typed = ""
        for letter in "abcdefghijklmnopqrstuvwxyz" {
            typed.append(letter)
            let patch = try JSONPatch(json: [["op": "replace", "path": "/name", "value": .string(typed)]])
            _ = try change(session.apply(.patch(patch), source: .webSocket(1), undoGroup: "run"))
            #expect(session.canUndo, "after \(typed)")
        }
        let undone = try change(session.apply(.undo, source: .webSocket(1)))
        #expect(undone.props["name"]?.stringValue.map { $0.count < 26 && "abcdefghijklmnopqrstuvwxyz".hasPrefix($0) } == true)
    }

    @Test func dispatchGoesThroughSuggestionAndValidation() throws {
        var session = try session("auth-login--empty")
        let typed = try change(session.apply(.dispatch(CommandInvocation("username.update", payload: "ada")), source: .webSocket(1)))
        #expect(typed.props["input"]?["_0"]?["username"]?["value"] == "ada")
        #expect(session.apply(.dispatch(CommandInvocation("login")), source: .webSocket(1)) == .success(.unchanged))
        _ = try change(session.apply(.dispatch(CommandInvocation("password.update", payload: "secret")), source: .webSocket(1)))
        let loading = try change(session.apply(.dispatch(CommandInvocation("login")), source: .webSocket(1)))
        #expect(loading.props == ["loading": ["cancel": "cancel"]])
        #expect(loading.entry.kind == .dispatch)
        #expect(loading.entry.command == "login")
        let cancelling = try change(session.apply(.dispatch(CommandInvocation("cancel")), source: .webSocket(1)))
        #expect(cancelling.props == ["cancelling": [:]])
    }

    @Test func everyDemoComponentWithCommandsSuggests() throws {
        for component in catalog.components {
            let usesCommands = try component.variants.contains { variant in
                Projections(try component.validate(variant.props).get().view).text.contains(" -> ")
            }
            #expect(!usesCommands || component.hasSuggestions, "\(component.title) renders commands but suggests nothing")
        }
    }

    @Test func openingAMovieFromTheListSelectsIt() throws {
        var session = try session("media-movie-list--default")
        let opened = try change(session.apply(.dispatch(CommandInvocation("open:arrival")), source: .http))
        #expect(opened.props["selectedID"] == "arrival")
        #expect(opened.projections.text.contains("item (selected) -> open:arrival"))
    }

    @Test func historyRebuildsEveryVersionFromPatchesAndSnapshots() throws {
        var session = try session()
        for index in 0..<100 {
            _ = try change(session.apply(.patch(try JSONPatch(json: [["op": "replace", "path": "/name", "value": .string("n\(index)")]])), source: .http))
        }
        for version in 2...101 {
            #expect(try session.history.props(at: version)?["name"] == .string("n\(version - 2)"))
        }
        #expect(try session.history.props(at: 1)?["name"] == "Ada Lovelace")
    }

    @Test func historyIsBoundedAndKeepsTheNewestVersions() throws {
        var session = try StorySession(story: #require(catalog.story(id: "profile-user-profile--default")),
                                       history: StoryHistory(capacity: 50, snapshotInterval: 8))
        for index in 0..<200 {
            _ = try change(session.apply(.replace(["name": .string("n\(index)"), "email": "e", "avatarURL": nil]), source: .http))
        }
        #expect(session.version == 201)
        #expect(session.history.entries.count <= 50)
        #expect(session.history.newestVersion == 201)
        let oldest = try #require(session.history.oldestVersion)
        #expect(try session.history.props(at: oldest)?["name"] == .string("n\(oldest - 2)"))
        #expect(try session.history.props(at: 1) == nil)
    }
}

extension Result {
    var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}
