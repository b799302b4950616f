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

    /// A row: its element, kept in memory laid out as its type, and its nodes.
    fileprivate final class Row {
        let nodes: [ViewNode]
        @exclusivity(unchecked) var used: Int
        let memory: UnsafeMutableRawPointer
        private let destroy: (UnsafeMutableRawPointer) -> Void

        init<Element>(_ element: Element, nodes: [ViewNode], used: Int) {
            self.nodes = nodes
            self.used = used
            memory = UnsafeMutableRawPointer.allocate(byteCount: MemoryLayout<Element>.size, alignment: MemoryLayout<Element>.alignment)
            memory.initializeMemory(as: Element.self, repeating: element, count: 1)
            destroy = { $0.assumingMemoryBound(to: Element.self).deinitialize(count: 1) }
        }

        deinit {
            destroy(memory)
            memory.deallocate()
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
    @exclusivity(unchecked) private var layouts: [ObjectIdentifier: SignificantBytes?] = [:]
    /// The number of the render under way; a row used in it has this number.
    @exclusivity(unchecked) private var render = 0
    /// How many rows are kept, and how many the render under way used.
    @exclusivity(unchecked) private var kept = 0
    @exclusivity(unchecked) private var used = 0
    @exclusivity(unchecked) private(set) var rowsBuilt = 0
    @exclusivity(unchecked) private(set) var rowsReused = 0

    /// The rows of `site`, whose elements are `Element`s; nil when such rows are not kept (a class).
    @usableFromInline
    func rows<Element>(at site: Site, of type: Element.Type) -> SiteRows? {
        if let rows = sites[site] { return rows }
        guard let layout = layout(of: Element.self) else { return nil }
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
        rows.byBits[bits] = Row(element, nodes: nodes, used: render)
        if found == nil { kept += 1 }
        used += 1
        rowsBuilt += 1
        return nodes
    }

    private func layout(of type: Any.Type) -> SignificantBytes? {
        let id = ObjectIdentifier(type)
        if let known = layouts[id] { return known }
        let layout = SignificantBytes(of: type)
        layouts[id] = layout
        return layout
    }

    /// A list item `List` made around a node, and the node (held, so that its box is never reused).
    private final class ListItemWrap {
        let node: ViewNode
        let item: ViewNode
        @exclusivity(unchecked) var used: Int

        init(node: ViewNode, item: ViewNode, used: Int) {
            self.node = node
            self.item = item
            self.used = used
        }
    }

    @exclusivity(unchecked) private var listItems: [UInt: ListItemWrap] = [:]
    @exclusivity(unchecked) private var listItemsUsed = 0
    @exclusivity(unchecked) private(set) var listItemsReused = 0

    /// The list item `List` puts around `node`: the one made in the last render around this very node
    /// (the same box: a row given back), or `wrap`'s. So a row given back is its list's item too,
    /// and comparing it with the previous view stops at once.
    @usableFromInline
    func listItem(around node: ViewNode, _ wrap: (ViewNode) -> ViewNode) -> ViewNode {
        guard MemoryLayout<ViewNode>.size == MemoryLayout<UInt>.size else { return wrap(node) }
        let bits = unsafeBitCast(node, to: UInt.self)  // the box of an indirect case: held below, never reused
        listItemsUsed += 1
        if let found = listItems[bits] {
            found.used = render
            listItemsReused += 1
            return found.item
        }
        let item = wrap(node)
        listItems[bits] = ListItemWrap(node: node, item: item, used: render)
        return item
    }

    /// The render is over: the rows and list items it did not use are forgotten once they are most
    /// of what is kept (a render in another environment, which uses none, forgets nothing).
    func finishRender() {
        if used > 0 && kept > 2 * used + 64 {
            for (site, rows) in sites {
                rows.byBits = rows.byBits.filter { $0.value.used == render }
                if rows.byBits.isEmpty { sites[site] = nil }
            }
            kept = used
        }
        if listItemsUsed > 0 && listItems.count > 2 * listItemsUsed + 64 {
            listItems = listItems.filter { $0.value.used == render }
        }
        render += 1
        used = 0
        listItemsUsed = 0
    }

    /// How many rows are kept.
    var count: Int { kept }
}
