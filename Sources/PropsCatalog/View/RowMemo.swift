/// The rows `ForEach(memoizing:)` built in a story's last render, so that the next render gives
/// back the nodes of every element it showed before instead of building them again: an edit of one
/// item of a long list builds that item's row. The rows it gives back share their storage with the
/// previous view's, so comparing them for the projections stops at once (see `ProjectionWriter`).
///
/// A row is found by its call site, its element's type and its element's significant bytes
/// (`SignificantBytes`: equal bytes over buffers the memo holds, so never reused or changed, are the
/// same value): first the row at the element's position in the site's last render, then by a hash
/// of those bytes. That is exact when the row is a function of its element alone, which is what
/// `ForEach(memoizing:)` asks of its content. Rows are kept for the default environment only (a row
/// may read the environment), and only the rows the last render used are kept.
///
/// Unchecked `Sendable`: it is part of a `RoundTripMemo`'s table, which one validation at a time
/// holds, and it is bound as `current` only while that validation calls the view (synchronous code).
@usableFromInline
final class RowMemo: @unchecked Sendable {
    /// The memo of the render under way, bound by the story's validation (`AnyComponent`).
    @TaskLocal static var current: RowMemo?

    /// `current`, for `ForEach(memoizing:)`, which is inlined in the component's module (so that
    /// walking the elements is specialized there).
    @usableFromInline
    static var active: RowMemo? { current }

    /// One `ForEach(memoizing:)` in the source, for one element type.
    @usableFromInline
    struct Site: Hashable {
        let file: UInt
        let line: Int
        let column: Int
        let element: ObjectIdentifier

        @usableFromInline
        init(file: StaticString, line: Int, column: Int, element: Any.Type) {
            self.file = UInt(bitPattern: file.utf8Start)
            self.line = line
            self.column = column
            self.element = ObjectIdentifier(element)
        }
    }

    /// A row: its element (held as its type), its nodes, and the list item `List` put around each
    /// of them once it has. The usual row, one node, keeps that node and its item in the row itself:
    /// a row given back is then read from one place, not from the row and two arrays.
    fileprivate final class Row: HeldValue {
        let nodes: [ViewNode]
        /// The row's node when it has exactly one.
        let single: ViewNode?
        @exclusivity(unchecked) var used: Int
        /// The list item around `single`, once `List` made it.
        @exclusivity(unchecked) private(set) var singleItem: ViewNode?
        /// The list item around each node of a row of several, once `List` made it.
        @exclusivity(unchecked) private var listItems: [ViewNode?]

        init<Element>(_ element: Element, nodes: [ViewNode], used: Int) {
            self.nodes = nodes
            single = nodes.count == 1 ? nodes[0] : nil
            self.used = used
            listItems = nodes.count == 1 ? [] : Array(repeating: nil, count: nodes.count)
            super.init(element)
        }

        /// The list item around node `index`, made by `wrap` the first time.
        func listItem(at index: Int, _ wrap: () -> ViewNode) -> (item: ViewNode, reused: Bool) {
            if single != nil {
                if let singleItem { return (singleItem, true) }
                let item = wrap()
                singleItem = item
                return (item, false)
            }
            if let item = listItems[index] { return (item, true) }
            let item = wrap()
            listItems[index] = item
            return (item, false)
        }
    }

    /// A row at a position of its site, with its node and that node's list item when it has one
    /// node: a row given back at its position is read from here, side by side with its neighbours,
    /// without reading the row itself.
    fileprivate struct Slot {
        let row: Row
        let single: ViewNode?
        var item: ViewNode?

        init(_ row: Row) {
            self.row = row
            single = row.single
            item = row.singleItem
        }
    }

    /// The rows of one site, and the layout of its elements.
    @usableFromInline
    final class SiteRows {
        let layout: SignificantBytes
        @exclusivity(unchecked) fileprivate var byBits: [UInt64: Row] = [:]
        /// The rows by position: the render under way's up to `placed`, the render before's from
        /// there to `previousCount`. An element is first compared with the one at its position last
        /// time (a list edited in one place), and a row found there stays where it is: an unchanged
        /// list writes nothing, and retains and releases no row. Rows found there are not marked
        /// used one by one: `markPlacedRowsUsed` does, when the memo sweeps.
        @exclusivity(unchecked) fileprivate var order: [Slot] = []
        /// The element each row of `order` was found or built for, by position, side by side.
        fileprivate let shown: HeldElements
        /// How many rows the render under way placed, and how many the render before did.
        @exclusivity(unchecked) fileprivate var placed = 0
        @exclusivity(unchecked) fileprivate var previousCount = 0
        /// The render `placed` counts for.
        @exclusivity(unchecked) fileprivate var render = -1

        init<Element>(layout: SignificantBytes, of type: Element.Type) {
            self.layout = layout
            shown = HeldElements(of: Element.self)
        }

        /// Starts the count of rows placed anew when `render` is another render than the one it is
        /// for, letting go of the rows and elements past the last render's.
        fileprivate func start(_ render: Int) {
            guard self.render != render else { return }
            previousCount = placed
            placed = 0
            if order.count > previousCount { order.removeSubrange(previousCount...) }
            shown.truncate(to: previousCount)
            self.render = render
        }

        /// Whether the element whose bytes are `element` is the one the row at the next position was
        /// for last time; if so, that row stays where it is and the next position is the one after.
        fileprivate func keepsPlace(for element: UnsafeRawBufferPointer) -> Bool {
            guard placed < previousCount, layout.bytes(element, matchValueAt: shown.address(placed)) else { return false }
            placed += 1
            return true
        }

        /// Puts `row`, for the element at `element`, at the next position.
        fileprivate func place(_ row: Row, for element: UnsafeRawPointer) {
            shown.set(placed, from: element)
            if placed < order.count {
                if order[placed].row !== row { order[placed] = Slot(row) }
            } else {
                order.append(Slot(row))
            }
            placed += 1
        }

        /// Marks the rows the render under way placed as used in it.
        fileprivate func markPlacedRowsUsed(in render: Int) {
            guard self.render == render else { return }
            for index in 0..<placed { order[index].row.used = render }
        }
    }

    /// A node of a row handed out in the render under way, with its index in the row and the row's
    /// position among its site's: `List` meets the nodes of a `ForEach(memoizing:)` in the order they
    /// were handed out. Neither the row nor the site is retained: the memo holds the site, and the
    /// site's `order` holds the row at `position` until the render after this one starts; the nodes
    /// handed out are forgotten when this one finishes.
    private struct HandedOut {
        let box: UInt
        let index: Int
        /// Whether the node is its row's only one (the usual row), whose item its slot keeps.
        let isSingle: Bool
        unowned(unsafe) let rows: SiteRows
        let position: Int
    }

    // Unchecked for exclusive access (the runtime's checks cost a tenth of a row found again): one
    // validation at a time uses the memo, and no access lasts across a call to a row's content.
    @exclusivity(unchecked) private var sites: [Site: SiteRows] = [:]
    /// The rows kept, by the box of each of their nodes: where `List` finds a row given back.
    @exclusivity(unchecked) private var rowsByNode: [UInt: Row] = [:]
    /// The nodes handed out and not yet met by the `List` around them, oldest first.
    @exclusivity(unchecked) private var handedOut: [HandedOut] = []
    /// The number of the render under way; a row used in it has this number.
    @exclusivity(unchecked) private var render = 0
    /// How many rows are kept, and how many the render under way used.
    @exclusivity(unchecked) private(set) var count = 0
    @exclusivity(unchecked) private var used = 0
    @exclusivity(unchecked) private(set) var rowsBuilt = 0
    @exclusivity(unchecked) private(set) var rowsReused = 0
    @exclusivity(unchecked) private(set) var listItemsReused = 0

    /// The rows of `site`, whose elements are `Element`s; nil when such rows are not kept (a class).
    @usableFromInline
    func rows<Element>(at site: Site, of type: Element.Type) -> SiteRows? {
        if let rows = sites[site] {
            rows.start(render)
            return rows
        }
        guard let layout = SignificantBytes(of: Element.self) else { return nil }
        let rows = SiteRows(layout: layout, of: Element.self)
        rows.start(render)
        sites[site] = rows
        return rows
    }

    /// Appends to `nodes` the nodes kept for the element whose bytes are `element` among `rows`,
    /// built last time for an identical element; false when there are none (the caller builds them
    /// and hands them to ``keep(_:nodes:in:handedOutBefore:appendingTo:)``).
    @usableFromInline
    func appendKeptNodes(for element: UnsafeRawBufferPointer, in rows: SiteRows, to nodes: inout [ViewNode]) -> Bool {
        if rows.keepsPlace(for: element) {
            // the row at its position last time: counted, not marked, as used (it may be counted
            // twice if it stands at two positions, which only makes the memo sweep a little later)
            used += 1
        } else if let found = rows.byBits[rows.layout.fold(bytes: element)], rows.layout.bytes(element, matchValueAt: found.memory) {
            rows.place(found, for: element.baseAddress!)
            if found.used != render { used += 1 }
            found.used = render
        } else {
            return false
        }
        rowsReused += 1
        handOut(at: rows.placed - 1, of: rows, to: &nodes)
        return true
    }

    /// Keeps `made`, built for `element` among `rows`, and appends them to `nodes`. What rows handed
    /// out while they were built (`handedOutBefore` is ``handedOutCount`` from before) went into them.
    @usableFromInline
    func keep<Element>(
        _ element: Element, nodes made: [ViewNode], in rows: SiteRows, handedOutBefore mark: Int, appendingTo nodes: inout [ViewNode]
    ) {
        forgetHandedOut(from: mark)
        let bits = rows.layout.fold(element)
        let replaced = rows.byBits[bits]
        let row = Row(element, nodes: made, used: render)
        rows.byBits[bits] = row
        withUnsafePointer(to: element) { rows.place(row, for: UnsafeRawPointer($0)) }
        for node in made { if let box = node.boxAddress { rowsByNode[box] = row } }
        if replaced == nil { count += 1 }
        used += 1
        rowsBuilt += 1
        handOut(at: rows.placed - 1, of: rows, to: &nodes)
    }

    /// Appends the nodes of the row at `position` of `rows` to `nodes`, noting each as handed out.
    private func handOut(at position: Int, of rows: SiteRows, to nodes: inout [ViewNode]) {
        if let node = rows.order[position].single {
            // the usual row, appended as one (an append of an array goes through its elements' witnesses)
            if let box = node.boxAddress { handedOut.append(HandedOut(box: box, index: 0, isSingle: true, rows: rows, position: position)) }
            nodes.append(node)
            return
        }
        let row = rows.order[position].row
        for (index, node) in row.nodes.enumerated() {
            if let box = node.boxAddress { handedOut.append(HandedOut(box: box, index: index, isSingle: false, rows: rows, position: position)) }
        }
        nodes.append(contentsOf: row.nodes)
    }

    /// How many nodes are handed out and not yet met by a `List`: a `List` or a row marks it before
    /// its content, and what its content handed out is from there on.
    @usableFromInline
    var handedOutCount: Int { handedOut.count }

    /// Forgets the nodes handed out from `mark` on: the content they were handed out to is built.
    @usableFromInline
    func forgetHandedOut(from mark: Int) {
        if mark < handedOut.count { handedOut.removeSubrange(mark...) }
    }

    /// The list item `List` puts around `node`: for a node of a kept row (a row given back), the one
    /// made around it before, or `wrap`'s, kept with the row; for any other node, `wrap`'s. So a row
    /// given back is its list's item too, and comparing it with the previous view stops at once.
    /// `cursor` is where among the nodes handed out `node` is looked for first.
    @usableFromInline
    func listItem(around node: ViewNode, cursor: inout Int, _ wrap: (ViewNode) -> ViewNode) -> ViewNode {
        guard let box = node.boxAddress else { return wrap(node) }
        if cursor < handedOut.count, handedOut[cursor].box == box {
            let handed = handedOut[cursor]
            cursor += 1
            if handed.isSingle {
                // a one-node row: its item is read from its slot, and kept there once made
                if let item = handed.rows.order[handed.position].item {
                    listItemsReused += 1
                    return item
                }
                let (item, reused) = handed.rows.order[handed.position].row.listItem(at: 0) { wrap(node) }
                if reused { listItemsReused += 1 }
                handed.rows.order[handed.position].item = item
                return item
            }
            let (item, reused) = handed.rows.order[handed.position].row.listItem(at: handed.index) { wrap(node) }
            if reused { listItemsReused += 1 }
            return item
        }
        guard let found = rowsByNode[box], let index = found.nodes.firstIndex(where: { $0.boxAddress == box }) else { return wrap(node) }
        let (item, reused) = found.listItem(at: index) { wrap(node) }
        if reused { listItemsReused += 1 }
        return item
    }

    /// The render is over: the rows it did not use are forgotten once they are most of the memo
    /// (a render in another environment, which uses none, forgets nothing).
    func finishRender() {
        if used > 0 && count > 2 * used + 64 {
            for rows in sites.values { rows.markPlacedRowsUsed(in: render) }
            for (site, rows) in sites {
                rows.byBits = rows.byBits.filter { $0.value.used == render }
                if rows.byBits.isEmpty { sites[site] = nil }
            }
            rowsByNode = rowsByNode.filter { $0.value.used == render }
            count = sites.values.reduce(0) { $0 + $1.byBits.count }
        }
        render += 1
        used = 0
        handedOut.removeAll(keepingCapacity: true)
    }
}
