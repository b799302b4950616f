import PropsCatalog
import Testing

// The example of docs/registering.md, kept compiling and true.
private struct Greeting: Codable, Sendable, Equatable {
    var name: String
    var isMember: Bool
}

private let greeting = Component<Greeting>("Demo/Greeting") { props in
    Heading("Hello, \(props.name)")
    if props.isMember { Badge("Member", tone: .success) }
    Button("Say hi", command: "wave")
}
.variant("Guest", Greeting(name: "Ada", isMember: false))
.variant("Member", Greeting(name: "Grace", isMember: true))

private struct Counter: Codable, Sendable, Equatable {
    var count: Int
}

private let counter = Component<Counter>("Demo/Counter") { Button("+1 (\($0.count))", command: "increment") }
    .variant("Zero", Counter(count: 0))
    .suggesting { props, invocation in
        invocation.command.name == "increment" ? Counter(count: props.count + 1) : nil
    }

private struct Note: Codable, Sendable, Equatable {
    var text: String
}

private let note = Component<Note>("Demo/Note") { props in
    TextField("Note", value: props.text, command: "note.update")
}
.variant("Empty", Note(text: ""))
.suggesting { props, invocation in
    guard invocation.command == "note.update", let text = invocation.text else { return nil }
    return Note(text: text)
}

private enum CounterCommand: String, CommandRepresentable, CaseIterable {
    case increment, reset
}

private let typedCounter = Component<Counter>("Demo/Typed Counter") { props in
    Button("+1 (\(props.count))", command: CounterCommand.increment)
    Button("Reset", command: CounterCommand.reset)
}
.variant("Zero", Counter(count: 0))
.suggesting(CounterCommand.self) { props, invocation in
    switch invocation.command {
    case .increment: Counter(count: props.count + 1)
    case .reset: Counter(count: 0)
    }
}

private struct Backlog: Codable, Sendable, Equatable {
    struct Item: Codable, Sendable, Equatable {
        var title: String
        var points: Int
    }
    var title: String
    var items: [Item]
}

private let backlog = Component<Backlog>("Demo/Backlog") { props in
    Section(props.title) {
        List {
            ForEach(memoizing: props.items) { item in
                HStack { Text(item.title); Badge("\(item.points) pt") }
            }
        }
    }
}
.variant("Long", Backlog(title: "Backlog", items: (1...500).map { .init(title: "Story \($0)", points: $0 % 8) }))

private struct Shelf: Codable, Sendable, Equatable {
    var title: String
    var counter: Counter
}

private let shelf = Component<Shelf>("Demo/Shelf") { props in
    Heading(props.title)
    Embed(counter, props.counter)
}
.variant("Default", Shelf(title: "Counts", counter: Counter(count: 2)))

private struct Card: Codable, Sendable, Equatable {
    var title: String
    var isLoading: Bool
    var status: Status
}

private enum Status: String, Codable, Sendable, CaseIterable { case draft, published, failed }

private let card = Component<Card>("Demo/Card") { props in
    Heading(props.title)
    if props.isLoading { Spinner("Loading…") }
    Badge(props.status.rawValue)
}
.variant("Default", Card(title: "Hello", isLoading: false, status: .draft))
.description("A card with a *status*. Generated: every `status`, loading or not, and two hard titles.")
.permutations(from: "Default", over: "/isLoading", "/status", "/title")
.values("/title", ["", "A very long title that wraps twice in a narrow card"])

@Suite struct RegisteringExampleTests {
    private func session(_ id: String) throws -> StorySession {
        let catalog = try Catalog { note; typedCounter; shelf }
        return try StorySession(story: #require(catalog.story(id: id)))
    }

    @Test func theTextOfAFieldArrivesAsInvocationText() throws {
        var session = try session("demo-note--empty")
        _ = session.apply(.dispatch(CommandInvocation("note.update", payload: "Buy milk")), source: .http)
        #expect(session.props == ["text": "Buy milk"])
    }

    @Test func typedCommandsAreStringsOnTheWireAndTypedInTheSuggestion() throws {
        var session = try session("demo-typed-counter--zero")
        #expect(session.projections.text.contains("-> increment"))
        _ = session.apply(.dispatch(CommandInvocation("increment")), source: .http)
        _ = session.apply(.dispatch(CommandInvocation("increment")), source: .http)
        #expect(session.props == ["count": 2])
        _ = session.apply(.dispatch(CommandInvocation("reset")), source: .http)
        #expect(session.props == ["count": 0])
        let typo = session.apply(.dispatch(CommandInvocation("incremnt")), source: .http)
        #expect(typo.failure?.code == .unknownCommand)
    }

    @Test func aCommandInsideAnEmbeddedChildIsWrittenBackWhereTheChildsPropsCameFrom() throws {
        var session = try session("demo-shelf--default")
        #expect(session.story.component.handlers(of: "increment", in: session.props) == ["Demo/Counter"])
        _ = session.apply(.dispatch(CommandInvocation("increment")), source: .http)
        #expect(session.props == ["title": "Counts", "counter": ["count": 3]])
    }

    @Test func theDocumentedExampleRegistersAndRenders() throws {
        let catalog = try Catalog { greeting; counter }
        #expect(catalog.stories.map(\.id) == ["demo-greeting--guest", "demo-greeting--member", "demo-counter--zero"])
        let member = try #require(catalog.story(id: "demo-greeting--member"))
        #expect(Projections(try member.registeredView().get()).text == """
            heading1 "Hello, Grace"
            badge "Member" (success)
            button "Say hi" -> wave

            """)
        var session = try StorySession(story: #require(catalog.story(id: "demo-counter--zero")))
        _ = session.apply(.dispatch(CommandInvocation("increment")), source: .http)
        #expect(session.props == ["count": 1])
    }

    @Test func theDocumentedLongListBuildsOnlyTheEditedRow() throws {
        var session = try StorySession(story: #require(try Catalog { backlog }.story(id: "demo-backlog--long")))
        let before = session.memo.rowStatistics
        let patch = try JSONPatch(json: [["op": "replace", "path": "/items/250/title", "value": "Renamed"]])
        guard case .success = session.apply(.patch(patch), source: .http) else { Issue.record("refused"); return }
        #expect(session.memo.rowStatistics.built - before.built == 1)
        #expect(session.projections.text.contains(#"text "Renamed""#))
    }

    @Test func theDocumentedPermutationsGenerateNamedStories() throws {
        let catalog = try Catalog { card }
        // isLoading 2 x status 3 x title 3 (the base's and two given) = 18, less the base itself.
        #expect(catalog.stories.count == 18)
        let story = try #require(catalog.story(id: "demo-card--isloading-true-status-failed"))
        #expect(story.name == "isLoading=true, status=failed")
        #expect(story.props == ["title": "Hello", "isLoading": true, "status": "failed"])
        #expect(catalog.story(id: "demo-card--title")?.name == "title=\"\"")
        #expect(catalog.story(id: "demo-card--title")?.props["title"] == "")
        #expect(catalog.components[0].summary?.hasPrefix("A card") == true)
    }
}
