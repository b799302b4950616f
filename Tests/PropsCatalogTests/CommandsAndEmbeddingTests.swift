import DemoCatalog
import Foundation
@testable import PropsCatalog
import Testing

/// Issue 12: typed commands, embedded children that work, and hints checked at start-up.
@Suite struct CommandsAndEmbeddingTests {
    struct Item: Codable, Sendable, Equatable {
        var id: String
        var count: Int
    }

    struct Basket: Codable, Sendable, Equatable {
        var items: [Item]
    }

    enum BasketCommand: String, CommandRepresentable, CaseIterable { case empty, refill }

    static let basket = Component<Basket>("Test/Basket") { props in
        ForEach(props.items) { item in
            // Reproduction 7: an interpolated command did not compile.
            Button("Remove", command: "remove:\(item.id)")
        }
        Button("Empty", command: BasketCommand.empty)
    }
    .variant("Default", Basket(items: [Item(id: "a", count: 1), Item(id: "b", count: 2)]))
    .suggesting(BasketCommand.self) { props, invocation in
        switch invocation.command {
        case .empty: Basket(items: [])
        case .refill: Basket(items: [Item(id: "a", count: 1)])
        }
    }

    private func session(_ component: AnyComponent, _ story: String) throws -> StorySession {
        let catalog = try Catalog([component])
        return try StorySession(story: #require(catalog.story(id: story)))
    }

    @Test func interpolatedAndTypedCommandsAreTheSameStrings() throws {
        let id = "a"
        let command: Command = "remove:\(id)"
        #expect(command.name == "remove:a")
        #expect(Command(BasketCommand.empty) == "empty")
        #expect(CartLineCommand.increment(id: "mug").command == "increment:mug")
        let view = Self.basket.view(Basket(items: [Item(id: "x", count: 1)]))
        #expect(TextProjection.render(view).contains(#"button "Remove" -> remove:x"#))
    }

    @Test func aTypedSuggestionReceivesItsCommandType() throws {
        var session = try session(AnyComponent(Self.basket), "test-basket--default")
        let outcome = try session.apply(.dispatch(CommandInvocation("empty")), source: .http).get()
        guard case .changed(let change) = outcome else { Issue.record("expected a change"); return }
        #expect(change.props == ["items": []])
    }

    @Test func anUnknownTypedCommandIsReportedNotIgnored() throws {
        var session = try session(AnyComponent(Self.basket), "test-basket--default")
        let error = try #require(session.apply(.dispatch(CommandInvocation("emtpy")), source: .http).failure)
        #expect(error.code == .unknownCommand)
        #expect(error.message == "unknown command 'emtpy': BasketCommand has no such command (known: empty, refill)")
        #expect(session.version == 1)
    }

    @Test func invocationTextIsThePayloadString() {
        #expect(CommandInvocation("name.update", payload: "Ada").text == "Ada")
        #expect(Invocation(BasketCommand.empty, payload: 3).text == nil)
    }

    // MARK: Embedded children

    @Test func aCommandInsideAnEmbeddedChildReachesTheChildAndIsWrittenBack() throws {
        // Reproduction 8: a button inside Embed(cart, props.cart) logged an action and changed nothing.
        let catalog = try DemoCatalog.make()
        var session = try StorySession(story: #require(catalog.story(id: "shop-cart--filled")))
        let command = CartLineCommand.increment(id: "tea").command
        #expect(session.story.component.handlers(of: command, in: session.props) == ["Shop/Cart Line"])
        #expect(session.story.component.handlers(of: Command(CartCommand.checkout), in: session.props) == [])
        let outcome = try session.apply(.dispatch(CommandInvocation(command)), source: .http).get()
        guard case .changed(let change) = outcome else { Issue.record("expected a change"); return }
        #expect(change.props.value(at: JSONPointer(tokens: ["lines", "1", "quantity"])) == 2)
        #expect(change.props.value(at: JSONPointer(tokens: ["lines", "0", "quantity"])) == 2)
        #expect(change.entry.patch.operations.count == 1)
        // The parent's own typed commands still work beside the children's.
        let checkout = try session.apply(.dispatch(CommandInvocation(Command(CartCommand.checkout))), source: .http).get()
        guard case .changed(let checkedOut) = checkout else { Issue.record("expected a change"); return }
        #expect(checkedOut.props["isCheckedOut"] == true)
    }

    @Test func theMovieDetailToggleInsideTheAppTogglesOnce() throws {
        let catalog = try DemoCatalog.make()
        var session = try StorySession(story: #require(catalog.story(id: "media-movies--detail")))
        let outcome = try session.apply(.dispatch(CommandInvocation("favorite.toggle")), source: .http).get()
        guard case .changed(let change) = outcome else { Issue.record("expected a change"); return }
        #expect(change.props.value(at: JSONPointer(tokens: ["detail", "isFavorite"])) == true)
        #expect(session.story.component.handlers(of: "favorite.toggle", in: change.props) == ["Media/Movie Detail"])
        // Opening a movie in the embedded list: the list selects it, then the app routes to it.
        var list = try StorySession(story: #require(catalog.story(id: "media-movies--list")))
        let opened = try list.apply(.dispatch(CommandInvocation("open:arrival")), source: .http).get()
        guard case .changed(let routed) = opened else { Issue.record("expected a change"); return }
        #expect(routed.props["route"] == ["movies", "arrival"])
        #expect(routed.props.value(at: JSONPointer(tokens: ["list", "selectedID"])) == "arrival")
    }

    struct Wrapper: Codable, Sendable, Equatable {
        var inner: Item
        var copy: Int
    }

    @Test func aChildSuggestionIsWrittenBackWhereItsPropsCameFrom() throws {
        // The whole parent is then validated like every edit (StorySession.prepare).
        let child = Component<Item>("Test/Counter") { item in Button("+", command: "bump") }
            .variant("Default", Item(id: "a", count: 1))
            .suggesting { item, _ in Item(id: item.id, count: item.count + 1) }
        let parent = Component<Wrapper>("Test/Wrapper") { props in Embed(child, props.inner) }
            .variant("Default", Wrapper(inner: Item(id: "a", count: 1), copy: 1))
        var session = try session(AnyComponent(parent), "test-wrapper--default")
        let outcome = try session.apply(.dispatch(CommandInvocation("bump")), source: .http).get()
        guard case .changed(let change) = outcome else { Issue.record("expected a change"); return }
        #expect(change.props == ["inner": ["id": "a", "count": 2], "copy": 1])
    }

    @Test func aChildWhosePropsAreNotStoredCannotWriteBack() throws {
        let child = Component<Item>("Test/Counter") { _ in Button("+", command: "bump") }
            .variant("Default", Item(id: "a", count: 1))
            .suggesting { item, _ in Item(id: item.id, count: item.count + 1) }
        let parent = Component<Wrapper>("Test/Derived") { props in Embed(child, Item(id: "made-up", count: props.copy * 10)) }
            .variant("Default", Wrapper(inner: Item(id: "a", count: 1), copy: 1))
        var session = try session(AnyComponent(parent), "test-derived--default")
        let error = try #require(session.apply(.dispatch(CommandInvocation("bump")), source: .http).failure)
        #expect(error.message.contains("props are not stored in the props of 'Test/Derived'"))
    }

    enum Status: Codable, Sendable, Equatable {
        case idle
        case failed(message: String)
    }

    struct Panel: Codable, Sendable, Equatable {
        var status: Status
    }

    struct Page: Codable, Sendable, Equatable {
        var panel: Panel
    }

    @Test func theParentSchemaKnowsEveryUnionCaseOfTheChild() throws {
        // Reproduction 8, second half: the parent's union control offered only its own cases.
        let panel = Component<Panel>("Test/Panel") { _ in Text("panel") }
            .variant("Idle", Panel(status: .idle))
            .variant("Failed", Panel(status: .failed(message: "Offline")))
        let page = Component<Page>("Test/Page") { props in Embed(panel, props.panel) }
            .variant("Default", Page(panel: Panel(status: .idle)))
        let schema = try AnyComponent(page).schema()
        guard case .union(_, let cases)? = schema.schema(at: "/panel/status") else { Issue.record("no union"); return }
        #expect(cases.map(\.name) == ["idle", "failed"])
        #expect(cases.last?.example == ["failed": ["message": "Offline"]])
        #expect(schema.json.serialized().contains(#""example":{"failed":{"message":"Offline"}}"#))
    }

    struct Note: Codable, Sendable, Equatable {
        var id: String
        var body: String
        var tint: String
    }

    struct Board: Codable, Sendable, Equatable {
        var pinned: Note?
        var notes: [Note]
        var title: String
    }

    @Test func theParentSchemaTakesTheChildsHintsWhereItsPropsSit() throws {
        let note = Component<Note>("Test/Note") { props in Text(props.body) }
            .variant("Default", Note(id: "a", body: "Hello", tint: "#ff0000"))
            .hint("/body", .multiline)
            .hint("/tint", .color)
            .hint("/id", .readOnly)
        let board = Component<Board>("Test/Board") { props in
            VStack {
                Text(props.title)
                if let pinned = props.pinned { Embed(note, pinned) }
                ForEach(props.notes) { Embed(note, $0) }
            }
        }
        .variant("Default", Board(pinned: Note(id: "p", body: "Pinned", tint: "#000000"),
                                  notes: [Note(id: "a", body: "One", tint: "#ffffff")], title: "Board"))
        .hint("/notes/*/tint", .multiline)  // the parent's own hint wins over the child's
        let schema = try AnyComponent(board).schema()
        #expect(schema.schema(at: "/notes/*/body") == .string(format: .multiline))
        #expect(schema.schema(at: "/notes/*/tint") == .string(format: .multiline))
        #expect(schema.schema(at: "/pinned/body") == .string(format: .multiline))
        #expect(schema.schema(at: "/pinned/tint") == .string(format: .color))
        #expect(schema.schema(at: "/title") == .string())
        #expect(schema.json.serialized().contains(#"{"name":"id","readOnly":true,"schema":{"type":"string"}}"#))
    }

    enum StepCommand: String, CommandRepresentable, CaseIterable { case next, back }
    struct Wizard: Codable, Sendable, Equatable {
        var onDone: Command
        var primary: StepCommand
    }

    @Test func commandFieldsInPropsAreCommandsOrTheTypesChoices() throws {
        // docs/schema.md, "Commands in props".
        let wizard = Component<Wizard>("Test/Wizard") { _ in Text("wizard") }
            .variant("Default", Wizard(onDone: "finish", primary: .next))
        let schema = try AnyComponent(wizard).schema()
        #expect(schema.schema(at: "/onDone") == .command)
        #expect(schema.schema(at: "/primary") == .enumeration(name: "StepCommand", values: ["next", "back"]))
        #expect(try JSONValueEncoder().encode(Wizard(onDone: "next", primary: .next)).serialized() == #"{"onDone":"next","primary":"next"}"#)
    }

    // MARK: Start-up checks

    struct Levelled: Codable, Sendable, Equatable {
        var level: String
        var count: Int
    }

    @Test func aHintWithATypoStopsStartUp() throws {
        // Reproduction 9: .hint("/levl", .multiline) was ignored.
        let component = Component<Levelled>("Test/Levelled") { props in Text(props.level) }
            .variant("Default", Levelled(level: "a", count: 1))
            .hint("/levl", .multiline)
        #expect(throws: CatalogError.self) { try AnyComponent(component) }
        do {
            _ = try Catalog { component }
            Issue.record("expected an error")
        } catch {
            #expect(error.description == "component 'Test/Levelled' has a hint for '/levl', which names no field of its schema: did you mean '/level'?")
        }
        let wrongKind = Component<Levelled>("Test/Levelled") { props in Text(props.level) }
            .variant("Default", Levelled(level: "a", count: 1))
            .hint("/count", .multiline)
        #expect(throws: CatalogError.self) { try AnyComponent(wrongKind) }
    }
}
