import DemoCatalog
import Logging
import PropsCatalog
@testable import StorybookServer
import Testing
@testable import StorybookTransport

/// `preview-field` over the WebSocket protocol, without a socket: a connection focusing a string
/// field of a story it is subscribed to learns where that field's text shows in the `html` of each
/// version it gets, in its own environment.
@Suite struct PreviewFieldMessageTests {
    let sink = RecordingSink()
    let hub: StoryHub
    let handler: WebSocketHandler
    let alice = ConnectionID(raw: 1)
    let bob = ConnectionID(raw: 2)
    let carol = ConnectionID(raw: 3)
    let profile = "profile-user-profile--default"
    let movie = "media-movie-detail--default"

    init() throws {
        hub = StoryHub(catalog: try DemoCatalog.make(), sink: sink, logger: Logger(label: "test"))
        handler = WebSocketHandler(hub: hub, replays: ReplayController(hub: hub) { _, work in work() },
                                   presence: PresenceBoard.sendingAtOnce(hub: hub), renderers: RendererRegistry(hub: hub, logger: Logger(label: "test")),
                                   maxJSONDepth: 16, maxMessageBytes: 1 << 20, logger: Logger(label: "test"))
    }

    private func send(_ message: JSONValue, from connection: ConnectionID) {
        handler.received(message.serializedBytes(), from: connection)
    }

    private func subscribe(_ connection: ConnectionID, to story: String, environment: JSONValue = nil, delta: Bool = false) {
        send(["type": "subscribe", "story": .string(story), "environment": environment, "delta": .bool(delta)], from: connection)
    }

    private func focus(_ connection: ConnectionID, on story: String, _ path: String?) {
        send(["type": "focus", "story": .string(story), "path": path.map(JSONValue.string) ?? .null], from: connection)
    }

    private func patch(_ story: String, _ path: String, to value: JSONValue, from connection: ConnectionID) {
        send(["type": "patch", "story": .string(story), "patch": [["op": "replace", "path": .string(path), "value": value]]], from: connection)
    }

    private func messages(_ connection: ConnectionID, _ type: String) -> [JSONValue] {
        sink.received(by: connection).filter { $0["type"] == .string(type) }
    }

    /// The text at each offset of a `preview-field` message in `html`, in UTF-16 code units (what a
    /// browser's string indices count), compared unit for unit.
    private func slices(_ field: JSONValue, of html: String) -> [[UInt16]] {
        let units = Array(html.utf16)
        let length = Int(field["length"]?.integerValue ?? -1)
        return (field["at"]?.arrayValue ?? []).map { offset in
            let start = Int(offset.integerValue ?? -1)
            guard start >= 0, length >= 0, start + length <= units.count else { return [] }
            return Array(units[start..<start + length])
        }
    }

    /// `html` cut at a `preview-field` message's offsets and joined with `text`, escaped: what the
    /// browser shows for a keystroke (Public/js/optimistic-preview.js).
    private func splice(_ field: JSONValue, of html: String, with text: String) -> [UInt8] {
        let units = Array(html.utf16)
        let length = Int(field["length"]?.integerValue ?? 0)
        var result: [UInt16] = []
        var from = 0
        for offset in (field["at"]?.arrayValue ?? []).compactMap(\.integerValue).map(Int.init) {
            result += units[from..<offset] + Array(HTMLProjection.escape(text).utf16)
            from = offset + length
        }
        result += units[from...]
        return Array(String(decoding: result, as: UTF16.self).utf8)
    }

    private static func escaped(_ text: String) -> [UInt16] {
        Array(HTMLProjection.escape(text).utf16)
    }

    /// Focus on `/name` right after subscribing: the field's offsets slice the escaped name out of
    /// the state's `html` twice (the avatar's alt text and the heading), and cut there that `html`
    /// predicts the next state's for another name, byte for byte.
    @Test func focusOnAStringFieldAnswersWithWhereItsTextShows() throws {
        subscribe(alice, to: profile)
        focus(alice, on: profile, "/name")
        #expect(sink.types(for: alice) == ["state", "presence", "presence", "preview-field"])
        let state = try #require(messages(alice, "state").last)
        let field = try #require(messages(alice, "preview-field").last)
        #expect(field["story"] == .string(profile))
        #expect(field["version"] == 1 && state["version"] == 1)
        #expect(field["path"] == "/name")
        #expect(field["length"] == 12)
        let html = try #require(state["html"]?.stringValue)
        #expect(slices(field, of: html) == Array(repeating: Self.escaped("Ada Lovelace"), count: 2))
        #expect(sink.coalescingKeys(for: alice).last == "preview-field:\(profile)")

        let name = #"Zoë "<Ada>" & 'Łódź' 👩🏽‍💻"#
        patch(profile, "/name", to: .string(name), from: bob)
        let next = try #require(messages(alice, "state").last?["html"]?.stringValue)
        #expect(splice(field, of: html, with: name) == Array(next.utf8))
    }

    /// The server keeps a field's template while it still gives the live HTML; an edit of another
    /// field that moves the text (no avatar: the alt text holding the name is gone) must not reuse
    /// it: the offsets are those of the new HTML.
    @Test func anEditThatMovesTheTextIsNotAnsweredFromTheKeptTemplate() throws {
        subscribe(alice, to: profile)
        focus(alice, on: profile, "/name")
        patch(profile, "/name", to: "Grace", from: alice)  // the typist's own edit: the template is kept
        patch(profile, "/avatarURL", to: .null, from: bob)
        let html = try #require(messages(alice, "state").last?["html"]?.stringValue)
        let field = try #require(messages(alice, "preview-field").last)
        #expect(field["version"] == 3)
        #expect(slices(field, of: html) == [Self.escaped("Grace")])
        #expect(splice(field, of: html, with: "Ada") == Array(try #require(hub.liveSession(profile)).projections.html.replacing("Grace", with: "Ada").utf8))
    }

    /// Escaped text: the offsets and the length are those of the escaped name in the HTML.
    @Test func theOffsetsAreThoseOfTheEscapedText() throws {
        let story = "profile-user-profile--hostile"
        subscribe(alice, to: story)
        focus(alice, on: story, "/name")
        let html = try #require(messages(alice, "state").last?["html"]?.stringValue)
        let field = try #require(messages(alice, "preview-field").last)
        #expect(field["length"] == .integer(Int64(Self.escaped("<script>alert(1)</script>").count)))
        #expect(slices(field, of: html) == Array(repeating: Self.escaped("<script>alert(1)</script>"), count: 2))
    }

    /// Every new version by someone else brings the focused connection the state then the field of
    /// that version; a subscriber that focuses nothing gets the state alone.
    @Test func aNewVersionSendsTheStateThenTheFieldOfThatVersion() throws {
        subscribe(alice, to: profile)
        subscribe(carol, to: profile)
        focus(alice, on: profile, "/name")
        sink.clear()
        patch(profile, "/name", to: "Grace <Hopper>", from: bob)
        #expect(sink.types(for: alice) == ["state", "preview-field"])
        #expect(sink.types(for: carol) == ["state"])
        #expect(sink.received(by: bob).isEmpty)  // not subscribed, no ref: nothing
        let state = try #require(messages(alice, "state").last)
        let field = try #require(messages(alice, "preview-field").last)
        #expect(state["version"] == 2 && field["version"] == 2)
        #expect(slices(field, of: try #require(state["html"]?.stringValue)) == Array(repeating: Self.escaped("Grace <Hopper>"), count: 2))
        #expect(sink.coalescingKeys(for: alice) == ["state:\(profile)", "preview-field:\(profile)"])

        // her own edit of the field needs none (the template she has still holds); an edit of
        // another field does
        sink.clear()
        patch(profile, "/name", to: "G", from: alice)
        patch(profile, "/email", to: "g@example.com", from: bob)
        #expect(sink.types(for: alice) == ["state", "state", "preview-field"])
        let versions = messages(alice, "preview-field").compactMap { $0["version"]?.integerValue }
        #expect(versions == [4])
        let last = try #require(messages(alice, "preview-field").last)
        #expect(slices(last, of: try #require(messages(alice, "state").last?["html"]?.stringValue)) == [Self.escaped("G"), Self.escaped("G")])
    }

    /// A connection's own edits of its focused field, one version after another, bring it states
    /// alone while the template it was told of gives each new `html`: filled with each new name, the
    /// `preview-field` it has gives each state's `html` byte for byte. Another connection focusing
    /// the same field is told of each version. A patch that also sets another field, a patch from
    /// another connection, and a focus sent again (which checks the field anew) each bring one.
    @Test func ownEditsOfTheFocusedFieldBringStatesAlone() throws {
        subscribe(alice, to: profile)
        subscribe(bob, to: profile)
        focus(bob, on: profile, "/name")
        focus(alice, on: profile, "/name")  // after Bob's: a focus checks the field anew, for everyone
        let told = try #require(messages(alice, "preview-field").last)
        let html = try #require(messages(alice, "state").last?["html"]?.stringValue)
        sink.clear()
        for name in ["G", "Gr", "Gra", "Grace & <co>", ""] {
            patch(profile, "/name", to: .string(name), from: alice)
            let state = try #require(messages(alice, "state").last)
            #expect(splice(told, of: html, with: name) == Array(try #require(state["html"]?.stringValue).utf8), "\(name)")
        }
        #expect(sink.types(for: alice) == Array(repeating: "state", count: 5))
        #expect(sink.types(for: bob) == Array(repeating: ["state", "preview-field"], count: 5).flatMap { $0 })

        sink.clear()
        send(["type": "patch", "story": .string(profile), "patch": [
            ["op": "replace", "path": "/name", "value": "Ada"], ["op": "replace", "path": "/email", "value": "a@example.com"],
        ]], from: alice)
        #expect(sink.types(for: alice) == ["state", "preview-field"])
        sink.clear()
        patch(profile, "/name", to: "Ada L", from: bob)
        #expect(sink.types(for: alice) == ["state", "preview-field"])
        sink.clear()
        focus(alice, on: profile, "/name")
        #expect(messages(alice, "preview-field").compactMap { $0["version"]?.integerValue } == [8])
        // Bob's template was checked anew too: his next own edit brings him the field.
        sink.clear()
        patch(profile, "/name", to: "Ada Lo", from: bob)
        #expect(sink.types(for: bob) == ["state", "preview-field"])
        patch(profile, "/name", to: "Ada Lov", from: bob)
        #expect(sink.types(for: bob) == ["state", "preview-field", "state"])
    }

    /// A delta that found a state still waiting for a slow reader was not sent: the reader gets the whole live
    /// state and, since it may have missed the version its template was told for, its field of
    /// that version; its next own edit of the field then brings the state alone again. The whole
    /// state names the change that made its version, as the delta would have.
    @Test func aSkippedStateBringsTheFieldAgain() throws {
        subscribe(alice, to: profile, delta: true)
        focus(alice, on: profile, "/name")
        patch(profile, "/name", to: "G", from: alice)
        sink.clear()
        hub.deltaSkippedState("state:\(profile)", for: [alice])
        #expect(sink.types(for: alice) == ["state", "preview-field"])
        #expect(messages(alice, "state").last?["delta"] == nil && messages(alice, "preview-field").last?["version"] == 2)
        #expect(messages(alice, "state").last?["cause"]?["kind"] == "patch")
        #expect(messages(alice, "state").last?["cause"]?["source"]?.stringValue == "ws:\(alice.raw)")
        sink.clear()
        patch(profile, "/name", to: "Gr", from: alice)
        #expect(sink.types(for: alice) == ["state"])
    }

    /// A field the view does not show as is (`at: null`) stays so through the connection's own
    /// edits: nothing more is sent until someone else's version.
    @Test func ownEditsOfAFieldNotShownAsIsBringStatesAlone() throws {
        subscribe(alice, to: profile)
        focus(alice, on: profile, "/avatarURL")
        #expect(messages(alice, "preview-field").last?["at"] == .null)
        sink.clear()
        patch(profile, "/avatarURL", to: "https://example.com/b.png", from: alice)
        patch(profile, "/avatarURL", to: "https://example.com/c.png", from: alice)
        #expect(sink.types(for: alice) == ["state", "state"])
        patch(profile, "/avatarURL", to: "https://example.com/d.png", from: bob)
        #expect(sink.types(for: alice) == ["state", "state", "state", "preview-field"])
        #expect(messages(alice, "preview-field").last?["at"] == .null)
    }

    /// `/avatarURL` is a string the view shows only as an image's `src`, which a marker is not a safe
    /// URL for: the field is described, with `at: null`.
    @Test func aStringTheViewDoesNotShowAsIsGetsNullOffsets() throws {
        subscribe(alice, to: profile)
        focus(alice, on: profile, "/avatarURL")
        let field = try #require(messages(alice, "preview-field").last)
        #expect(field == ["type": "preview-field", "story": .string(profile), "version": 1, "path": "/avatarURL", "at": nil, "length": 0])
        // the movie's `open` command is a string the detail view does not show at all
        subscribe(bob, to: movie)
        focus(bob, on: movie, "/movie/open")
        #expect(messages(bob, "preview-field").last?["at"] == .null)
    }

    /// A number, a Boolean, a null and a field that does not exist get no message.
    @Test(arguments: [
        ("media-movie-detail--default", "/movie/year"), ("media-movie-detail--default", "/isFavorite"),
        ("media-movie-detail--default", "/movie"), ("profile-user-profile--no-avatar", "/avatarURL"),
        ("profile-user-profile--default", "/nope"), ("profile-user-profile--default", "/name/0"),
    ])
    func focusOnAFieldThatIsNotAStringSendsNothing(story: String, path: String) {
        subscribe(alice, to: story)
        focus(alice, on: story, path)
        patch(story, story == movie ? "/movie/title" : "/email", to: "x", from: bob)
        #expect(messages(alice, "preview-field").isEmpty)
        #expect(messages(alice, "error").isEmpty)
    }

    /// Focus on null, or on another field, stops the messages of the field focused before.
    @Test func focusElsewhereStopsTheMessages() throws {
        subscribe(alice, to: profile)
        focus(alice, on: profile, "/name")
        focus(alice, on: profile, "/email")
        #expect(messages(alice, "preview-field").compactMap { $0["path"]?.stringValue } == ["/name", "/email"])
        sink.clear()
        patch(profile, "/name", to: "Grace", from: bob)
        #expect(messages(alice, "preview-field").compactMap { $0["path"]?.stringValue } == ["/email"])
        focus(alice, on: profile, nil)
        sink.clear()
        patch(profile, "/name", to: "Ada", from: bob)
        #expect(sink.types(for: alice) == ["state"])
        #expect(hub.previewFields.isEmpty)
    }

    /// A focus sent before the subscription: the field comes right after the subscription's first state.
    @Test func focusBeforeSubscribeIsAnsweredAfterTheSubscription() throws {
        focus(alice, on: profile, "/email")
        #expect(messages(alice, "preview-field").isEmpty)
        subscribe(alice, to: profile)
        #expect(sink.types(for: alice).prefix(2) == ["state", "preview-field"])
        let field = try #require(messages(alice, "preview-field").last)
        #expect(field["version"] == 1 && field["path"] == "/email")
        let html = try #require(messages(alice, "state").last?["html"]?.stringValue)
        #expect(slices(field, of: html) == [Self.escaped("ada@example.com")])

        // the story is live already, and the focus is on another story than the one subscribed to
        focus(bob, on: profile, "/name")
        subscribe(bob, to: movie)
        #expect(messages(bob, "preview-field").isEmpty)
        subscribe(bob, to: profile)
        #expect(messages(bob, "preview-field").last?["path"] == "/name")
        #expect(messages(alice, "preview-field").count == 1)  // another's subscription sends her nothing
    }

    /// An unsubscribed connection gets no field, though its focus stays for a later subscription.
    @Test func anUnsubscribedConnectionGetsNoField() {
        subscribe(alice, to: profile)
        focus(alice, on: profile, "/name")
        send(["type": "unsubscribe", "story": .string(profile)], from: alice)
        sink.clear()
        patch(profile, "/name", to: "Grace", from: bob)
        #expect(sink.received(by: alice).isEmpty)
    }

    /// Each subscriber's offsets are those of its own state's `html`: right to left, the back button
    /// before the movie's title has another icon, which moves the title (one template per field and
    /// environment, not one per field); dark and German move nothing before the title; a subscriber
    /// taking deltas gets the default environment's offsets after its delta.
    @Test func offsetsAreThoseOfEachSubscribersEnvironment() throws {
        subscribe(alice, to: movie, environment: ["layoutDirection": "rtl"])
        subscribe(bob, to: movie)
        subscribe(carol, to: movie, environment: ["colorScheme": "dark", "locale": "de-DE"])
        let dave = ConnectionID(raw: 4)
        subscribe(dave, to: movie, delta: true)
        for connection in [alice, bob, carol, dave] { focus(connection, on: movie, "/movie/title") }
        func check(_ title: String, version: Int64) throws -> [JSONValue] {
            try [alice, bob, carol].map { connection in
                let state = try #require(messages(connection, "state").last)
                let field = try #require(messages(connection, "preview-field").last)
                #expect(state["version"] == .integer(version) && field["version"] == .integer(version))
                let html = try #require(state["html"]?.stringValue)
                #expect(slices(field, of: html) == [Self.escaped(title)], "\(connection)")
                return try #require(field["at"])
            }
        }
        let before = try check("V for Vendetta", version: 1)
        #expect(before[0] != before[1])  // the environments do move the title
        #expect(before[2] == before[1])
        #expect(messages(dave, "preview-field").last?["at"] == before[1])

        sink.clear()
        patch(movie, "/movie/title", to: "Arrival & <Contact>", from: ConnectionID(raw: 5))  // no focusing connection's own edit
        let after = try check("Arrival & <Contact>", version: 2)
        #expect(after[0] != after[1])
        #expect(sink.types(for: dave) == ["state", "preview-field"])
        #expect(messages(dave, "state").last?["delta"] != nil)
        #expect(messages(dave, "preview-field").last?["at"] == after[1])
    }

    /// A closed connection's focus is forgotten: nothing is kept for it, and a connection that
    /// comes with its id later gets no field it did not ask for.
    @Test func disconnectForgetsTheFocus() {
        subscribe(alice, to: profile)
        focus(alice, on: profile, "/name")
        focus(bob, on: movie, "/movie/title")  // not subscribed
        handler.closed(alice)
        handler.closed(bob)
        #expect(hub.previewFields.isEmpty)
        sink.clear()
        subscribe(alice, to: profile)
        subscribe(bob, to: movie)
        patch(profile, "/name", to: "Grace", from: carol)
        #expect(messages(alice, "preview-field").isEmpty)
        #expect(messages(bob, "preview-field").isEmpty)
    }
}
