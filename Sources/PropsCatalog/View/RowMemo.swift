/// The rows `ForEach(memoizing:)` built in a story's last render, so that the next render gives
/// back the nodes of every element it showed before instead of building them again: an edit of one
/// item of a long list builds that item's row. The rows it gives back share their storage with the
/// previous view's, so comparing them for the projections stops at once (see `ProjectionWriter`).
///
/// A row is found by its call site, its element's type and its element's significant bytes
/// (`SignificantBytes`: equal bytes over buffers the memo holds, so never reused or changed, are the
/// same value). That is exact when the row is a function of its element alone, which is what
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
    /// of them once it has.
    fileprivate final class Row: HeldValue {
        let nodes: [ViewNode]
        @exclusivity(unchecked) var used: Int
        @exclusivity(unchecked) var listItems: [ViewNode?]

        init<Element>(_ element: Element, nodes: [ViewNode], used: Int) {
            self.nodes = nodes
            self.used = used
            listItems = Array(repeating: nil, count: nodes.count)
            super.init(element)
        }
    }

    /// The rows of one site, and the layout of its elements.
    @usableFromInline
    final class SiteRows {
        let layout: SignificantBytes
        @exclusivity(unchecked) fileprivate var byBits: [UInt64: Row] = [:]

        init(layout: SignificantBytes) {
            self.layout = layout
        }
    }

    // Unchecked for exclusive access (the runtime's checks cost a tenth of a row found again): one
    // validation at a time uses the memo, and no access lasts across a call to a row's content.
    @exclusivity(unchecked) private var sites: [Site: SiteRows] = [:]
    /// The rows kept, by the box of each of their nodes: where `List` finds a row given back.
    @exclusivity(unchecked) private var rowsByNode: [UInt: Row] = [:]
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
        if let rows = sites[site] { return rows }
        guard let layout = SignificantBytes(of: Element.self) else { return nil }
        let rows = SiteRows(layout: layout)
        sites[site] = rows
        return rows
    }

    /// The nodes of `element`'s row among `rows`: the ones built last time for an identical element, or `content`'s.
    @usableFromInline
    func nodes<Element>(for element: Element, in rows: SiteRows, _ content: (Element) -> [ViewNode]) -> [ViewNode] {
        let bits = rows.layout.fold(element)
        let found = rows.byBits[bits]
        if let row = found, rows.layout.value(element, matchesValueAt: row.memory) {
            if row.used != render { used += 1 }
            row.used = render
            rowsReused += 1
            return row.nodes
        }
        let nodes = content(element)
        let row = Row(element, nodes: nodes, used: render)
        rows.byBits[bits] = row
        for node in nodes { if let box = node.boxAddress { rowsByNode[box] = row } }
        if found == nil { count += 1 }
        used += 1
        rowsBuilt += 1
        return nodes
    }

    /// The list item `List` puts around `node`: for a node of a kept row (a row given back), the one
    /// made around it before, or `wrap`'s, kept with the row; for any other node, `wrap`'s. So a row
    /// given back is its list's item too, and comparing it with the previous view stops at once.
    @usableFromInline
    func listItem(around node: ViewNode, _ wrap: (ViewNode) -> ViewNode) -> ViewNode {
        guard let box = node.boxAddress, let row = rowsByNode[box],
              let index = row.nodes.firstIndex(where: { $0.boxAddress == box })
        else { return wrap(node) }
        if let item = row.listItems[index] {
            listItemsReused += 1
            return item
        }
        let item = wrap(node)
        row.listItems[index] = item
        return item
    }

    /// The render is over: the rows it did not use are forgotten once they are most of the memo
    /// (a render in another environment, which uses none, forgets nothing).
    func finishRender() {
        if used > 0 && count > 2 * used + 64 {
            for (site, rows) in sites {
                rows.byBits = rows.byBits.filter { $0.value.used == render }
                if rows.byBits.isEmpty { sites[site] = nil }
            }
            rowsByNode = rowsByNode.filter { $0.value.used == render }
            count = sites.values.reduce(0) { $0 + $1.byBits.count }
        }
        render += 1
        used = 0
    }
}

extension ViewNode {
    /// The address of the box an indirect case is stored in (the same for a node and its copies, and
    /// never another node's while the node is held), nil where a node is not laid out as one word.
    var boxAddress: UInt? {
        MemoryLayout<ViewNode>.size == MemoryLayout<UInt>.size ? unsafeBitCast(self, to: UInt.self) : nil
    }
}
