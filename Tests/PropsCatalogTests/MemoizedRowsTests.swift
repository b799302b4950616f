import Foundation
@testable import PropsCatalog
import Testing

/// `ForEach(memoizing:)`: a story's validations give back the rows of the elements they showed
/// before, so an edit of one item builds one row; the view is always the one building every row gives.
@Suite struct MemoizedRowsTests {
    typealias Board = RoundTripMemoTests.Board

    /// A row that reads its element and the environment's number format.
    static func component(memoizing: Bool) throws -> AnyComponent {
        try AnyComponent(Component<Board>("Memo/Rows") { props in
            Section(props.heading) {
                List {
                    if memoizing {
                        ForEach(memoizing: props.entries) { entry in
                            HStack { Text(entry.title); Badge(ViewEnvironment.current.format(Double(entry.priority) / 2, fractionDigits: 1)) }
                        }
                    } else {
                        ForEach(props.entries) { entry in
                            HStack { Text(entry.title); Badge(ViewEnvironment.current.format(Double(entry.priority) / 2, fractionDigits: 1)) }
                        }
                    }
                }
            }
        }.variant("Default", RoundTripMemoTests.board(100)))
    }

    static func edit(_ json: JSONValue, _ operation: String) throws -> JSONValue {
        try JSONPatch(json: JSONParser.parse("[\(operation)]")).apply(to: json)
    }

    @Test func anEditOfOneItemBuildsOneRowAndTheSameView() throws {
        let memoized = try Self.component(memoizing: true)
        let plain = try Self.component(memoizing: false)
        let memo = RoundTripMemo()
        var live = try memoized.validate(memoized.variants[0].props, memo: memo).get()
        #expect(memo.rowStatistics == (kept: 100, built: 100, reused: 0, listItemsReused: 0))
        let edits = [
            #"{"op": "replace", "path": "/entries/40/title", "value": "Renamed"}"#,
            #"{"op": "replace", "path": "/entries/3/priority", "value": 7}"#,
            #"{"op": "remove", "path": "/entries/0"}"#,
            #"{"op": "copy", "from": "/entries/2", "path": "/entries/-"}"#,
            #"{"op": "replace", "path": "/heading", "value": "Next sprint"}"#,
        ]
        // rows built per edit: the changed item; none for a removal; none for an item equal to one
        // shown (a copy); none when only the heading changed
        for (operation, built) in zip(edits, [1, 1, 0, 0, 0]) {
            let before = memo.rowStatistics
            let candidate = try Self.edit(live.props, operation)
            let previous = live.view
            live = try memoized.validate(candidate, memo: memo).get()
            // the list items around rows given back are the previous view's own (the same boxes;
            // the copy gets its original's)
            let items = Self.listItems(of: live.view)
            let shared = items.filter { item in Self.listItems(of: previous).contains { $0.boxAddress == item.boxAddress } }
            #expect(shared.count == items.count - built, "\(operation)")
            #expect(live.view == (try plain.validate(candidate).get()).view, "\(operation)")
            #expect(live.view == (try memoized.validate(candidate).get()).view, "\(operation)")
            #expect(memo.rowStatistics.built - before.built == built, "\(operation): \(before) -> \(memo.rowStatistics)")
        }
    }

    static func listItems(of view: [ViewNode]) -> [ViewNode] {
        guard case .section(_, let children)? = view.first, case .list(let items)? = children.first else { return [] }
        return items
    }

    /// Rows are kept for the default environment only: a row that reads the environment is built
    /// again in another one, and the default one's rows are still there afterwards.
    @Test func anotherEnvironmentBuildsItsOwnRows() throws {
        let memoized = try Self.component(memoizing: true)
        let plain = try Self.component(memoizing: false)
        let memo = RoundTripMemo()
        let props = memoized.variants[0].props
        let standard = try memoized.validate(props, memo: memo).get().view
        let german = ViewEnvironment(locale: "de-DE")
        let inGerman = try memoized.validate(props, in: german, memo: memo).get().view
        #expect(inGerman == (try plain.validate(props, in: german).get()).view)
        #expect(inGerman != standard)  // "1,5", not "1.5"
        let before = memo.rowStatistics
        _ = try memoized.validate(Self.edit(props, #"{"op": "replace", "path": "/heading", "value": "h"}"#), memo: memo).get()
        #expect(memo.rowStatistics.built == before.built && memo.rowStatistics.kept == 100)
    }

    /// However many edits, the memo keeps about the rows of one render.
    @Test func theRowsKeptAreBoundedByTheLastRender() throws {
        let memoized = try Self.component(memoizing: true)
        let memo = RoundTripMemo()
        var live = try memoized.validate(memoized.variants[0].props, memo: memo).get()
        for round in 0..<400 {
            let candidate = try Self.edit(live.props, #"{"op": "replace", "path": "/entries/\#(round % 100)/title", "value": "R\#(round)"}"#)
            live = try memoized.validate(candidate, memo: memo).get()
        }
        #expect(memo.rowStatistics.kept <= 2 * 100 + 64, "\(memo.rowStatistics)")
    }

    /// Rows given back at their position are not marked used one by one; the memo's sweep marks
    /// them, so it keeps them: a list cut to its first ten items keeps those ten rows, and reversed
    /// afterwards it builds none.
    @Test func rowsFoundAtTheirPositionOutliveTheSweep() throws {
        let memoized = try Self.component(memoizing: true)
        let plain = try Self.component(memoizing: false)
        let memo = RoundTripMemo()
        var props = memoized.variants[0].props
        _ = try memoized.validate(props, memo: memo).get()
        for _ in 10..<100 { props = try Self.edit(props, #"{"op": "remove", "path": "/entries/10"}"#) }
        _ = try memoized.validate(props, memo: memo).get()  // 100 rows kept, 10 used: the memo sweeps
        #expect(memo.rowStatistics.kept == 10, "\(memo.rowStatistics)")
        for index in 0..<9 { props = try Self.edit(props, #"{"op": "move", "from": "/entries/9", "path": "/entries/\#(index)"}"#) }
        let before = memo.rowStatistics
        let reversed = try memoized.validate(props, memo: memo).get()
        #expect(memo.rowStatistics.built == before.built, "\(before) -> \(memo.rowStatistics)")
        #expect(reversed.view == (try plain.validate(props).get()).view)
    }

    /// Rows found again anywhere in the list (moved, copied, shifted by an insertion or a removal)
    /// leave the memo where each position's element is known: after any of them, the view is plain
    /// `ForEach`'s and an edit of one title builds that one row.
    @Test func rowsFoundAfterAnyRearrangementKeepEachPositionRight() throws {
        let memoized = try Self.component(memoizing: true)
        let plain = try Self.component(memoizing: false)
        let memo = RoundTripMemo()
        var live = try memoized.validate(memoized.variants[0].props, memo: memo).get()
        var random = SeededGenerator(seed: 18)
        for step in 0..<60 {
            guard case .object(let object) = live.props, case .array(let entries)? = object["entries"] else {
                Issue.record("no entries")
                return
            }
            let count = entries.count
            let operation = switch Int.random(in: 0..<5, using: &random) {
            case 0: #"{"op": "remove", "path": "/entries/\#(Int.random(in: 0..<count, using: &random))"}"#
            case 1: #"{"op": "copy", "from": "/entries/\#(Int.random(in: 0..<count, using: &random))", "path": "/entries/\#(Int.random(in: 0...count, using: &random))"}"#
            case 2: #"{"op": "move", "from": "/entries/\#(Int.random(in: 0..<count, using: &random))", "path": "/entries/\#(Int.random(in: 0..<count, using: &random))"}"#
            case 3: #"{"op": "replace", "path": "/entries", "value": \#(JSONValue.array(Array(entries.reversed())).serialized())}"#
            default: #"{"op": "replace", "path": "/heading", "value": "step \#(step)"}"#
            }
            let candidate = try Self.edit(live.props, operation)
            live = try memoized.validate(candidate, memo: memo).get()
            #expect(live.view == (try plain.validate(candidate).get()).view, "step \(step): \(operation)")
            let before = memo.rowStatistics
            let renamed = try Self.edit(live.props, #"{"op": "replace", "path": "/entries/0/title", "value": "Renamed \#(step)"}"#)
            live = try memoized.validate(renamed, memo: memo).get()
            #expect(live.view == (try plain.validate(renamed).get()).view, "step \(step): the rename")
            #expect(memo.rowStatistics.built - before.built == 1, "step \(step) after \(operation): \(before) -> \(memo.rowStatistics)")
        }
    }

    /// The elements of rows a shorter list no longer shows are let go once the renders after it
    /// no longer need them, so a list that shrank holds no more than its rows.
    @Test func elementsNoLongerShownAreLetGo() {
        final class Token {}
        struct Element {
            let title: String
            let token: Token
        }
        let memo = RowMemo()
        var elements = (0..<200).map { Element(title: "Item \($0)", token: Token()) }
        weak let dropped = elements[150].token
        func render() -> [ViewNode] {
            let nodes = RowMemo.$current.withValue(memo) { List { ForEach(memoizing: elements) { Text($0.title) } }.viewNodes }
            memo.finishRender()
            return nodes
        }
        _ = render()
        elements.removeSubrange(10...)
        for _ in 0..<3 { _ = render() }
        #expect(dropped == nil)
        #expect(render() == List { ForEach(elements) { Text($0.title) } }.viewNodes)
        #expect(memo.rowsReused >= 10)
    }

    /// Elements of a class type are never kept (a reference says nothing of what it points to).
    @Test func rowsOfClassInstancesAreAlwaysBuilt() throws {
        typealias Box = RoundTripMemoTests.Box
        let component = try AnyComponent(Component<RoundTripMemoTests.Boxed>("Memo/Boxed rows") { props in
            List { ForEach(memoizing: props.boxes) { box in Text(box.text) } }
        }.variant("Default", RoundTripMemoTests.Boxed(boxes: [Box(text: "a"), Box(text: "b")])))
        let memo = RoundTripMemo()
        let props = component.variants[0].props
        _ = try component.validate(props, memo: memo).get()
        _ = try component.validate(Self.edit(props, #"{"op": "replace", "path": "/boxes/0/text", "value": "c"}"#), memo: memo).get()
        #expect(memo.rowStatistics == (kept: 0, built: 0, reused: 0, listItemsReused: 0))
    }

    /// A list whose content mixes rows of two nodes, a node of no row, rows with a list of their own
    /// (a memoizing `ForEach` inside a row) and a `ForEach` over a sequence that is not an array: the
    /// view is always plain `ForEach`'s, and the items around rows given back are given back too.
    @ViewBuilder
    static func mixedView(_ props: Board, memoizing: Bool) -> [ViewNode] {
        List {
            Text(props.heading)
            if memoizing {
                ForEach(memoizing: props.entries) { entry in
                    Text(entry.title)
                    List { ForEach(memoizing: entry.tags) { tag in Text(tag) } }
                }
                ForEach(memoizing: props.entries.lazy.filter(\.done)) { entry in Badge("done \(entry.id)") }
            } else {
                ForEach(props.entries) { entry in
                    Text(entry.title)
                    List { ForEach(entry.tags) { tag in Text(tag) } }
                }
                ForEach(props.entries.lazy.filter(\.done)) { entry in Badge("done \(entry.id)") }
            }
        }
    }

    @Test func mixedListContentGivesThePlainView() throws {
        let board = RoundTripMemoTests.board(40)
        let memoized = try AnyComponent(Component<Board>("Memo/Mixed") { Self.mixedView($0, memoizing: true) }.variant("Default", board))
        let plain = try AnyComponent(Component<Board>("Memo/Mixed") { Self.mixedView($0, memoizing: false) }.variant("Default", board))
        let memo = RoundTripMemo()
        var live = try memoized.validate(memoized.variants[0].props, memo: memo).get()
        let edits = [
            #"{"op": "replace", "path": "/entries/7/title", "value": "Renamed"}"#,
            #"{"op": "add", "path": "/entries/9/tags/-", "value": "new"}"#,
            #"{"op": "replace", "path": "/entries/12/done", "value": true}"#,
            #"{"op": "remove", "path": "/entries/0"}"#,
            #"{"op": "replace", "path": "/heading", "value": "Renamed board"}"#,
        ]
        for operation in edits {
            let before = memo.rowStatistics
            let candidate = try Self.edit(live.props, operation)
            live = try memoized.validate(candidate, memo: memo).get()
            #expect(live.view == (try plain.validate(candidate).get()).view, "\(operation)")
            // the rows given back bring their list items: at least one per row of titles kept
            #expect(memo.rowStatistics.listItemsReused - before.listItemsReused >= 30, "\(operation): \(before) -> \(memo.rowStatistics)")
        }
    }

    /// Without a server (a snapshot, a test), `ForEach(memoizing:)` is `ForEach(_:)`.
    @Test func withoutAMemoItIsForEach() throws {
        let board = RoundTripMemoTests.board(5)
        let memoized = ForEach(memoizing: board.entries) { entry in Text(entry.title) }
        let plain = ForEach(board.entries) { entry in Text(entry.title) }
        #expect(memoized.viewNodes == plain.viewNodes)
    }
}
