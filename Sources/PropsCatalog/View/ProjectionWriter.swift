#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// The output of one render of a projection, which copies the output of the nodes that equal their
/// counterpart in the previous render (see `RenderMemo`) instead of rendering them again.
///
/// A renderer calls ``node(_:match:render:)`` for every node with the previous node at the same
/// position in the same context (depth, attributes passed down): the renderer decides which children
/// match, because only it knows where it puts them. Adjacent copies are joined into one.
struct ProjectionWriter {
    /// A node of the previous render, with its memo entry and where its output starts in the previous output.
    struct Match {
        let node: ViewNode
        let entry: RenderMemo.Entry
        let offset: Int
        /// Whether `node` is already known to equal the new node.
        var isEqual = false

        /// The match of the roots, or of children, at `index` of `nodes`, among the previous `old` ones
        /// (with their entries, offsets from `base`): the one at the same index, or, when the counts differ
        /// (an insertion or a removal), the one at the same distance from the end if that one is equal.
        static func align(_ index: Int, of nodes: [ViewNode], old: [ViewNode], entries: [RenderMemo.Entry], base: Int) -> Match? {
            guard old.count == entries.count else { return nil }
            func match(_ oldIndex: Int, isEqual: Bool) -> Match {
                Match(node: old[oldIndex], entry: entries[oldIndex], offset: base + entries[oldIndex].start, isEqual: isEqual)
            }
            guard old.count != nodes.count else { return index < old.count ? match(index, isEqual: false) : nil }
            if index < old.count, old[index] == nodes[index] { return match(index, isEqual: true) }
            let fromEnd = index - nodes.count + old.count
            if old.indices.contains(fromEnd), old[fromEnd] == nodes[index] { return match(fromEnd, isEqual: true) }
            return index < old.count ? match(index, isEqual: false) : nil
        }

        /// The match of the child at `index` of `children`, the new node's children.
        func child(_ index: Int, of children: [ViewNode]) -> Match? {
            Match.align(index, of: children, old: node.renderedChildren, entries: entry.children, base: offset)
        }

        /// This match if its node is the same kind of container as `node` (so its children were put at
        /// the same depth), nil otherwise.
        func ifSameKind(as node: ViewNode) -> Match? {
            switch (node, self.node) {
            case (.stack, .stack), (.list, .list), (.listItem, .listItem), (.section, .section), (.component, .component),
                 (.accessible, .accessible):
                self
            default:
                nil
            }
        }
    }

    /// The previous render's output, which copies come from.
    private let previous: String
    /// The output so far, but for `renderedBytes` and `pending`, which follow it in that order.
    private var output = ""
    /// Lines rendered since the last copy, as bytes: they join `output` as one string when a copy
    /// follows or the render ends (appending each piece of a line to a `String` costs more than the
    /// piece's bytes).
    private var renderedBytes: [UInt8] = []
    /// A copy not made yet, so that the next one can join it: a range of `previous`'s bytes. Never
    /// set while `renderedBytes` holds bytes.
    private var pending: Range<Int>?
    private var rendered = 0
    private var reused = 0
    /// The bytes first written that are `previous`'s at the same offsets, copied or written alike:
    /// the start the output shares with `previous`; it grows until something else is written.
    private var sharedPrefix = 0
    private var prefixGrows = true
    /// The run of writes the output ends with so far that are `previous`'s bytes all shifted alike
    /// (copies, and text equal to the bytes there): its end shared with `previous`, once finished.
    /// Both are followed where copies are flushed, once per run of adjacent copies, not per copy.
    private var tailStart = 0
    private var tailShift = 0
    private var hasTail = false

    init(previous: String = "") {
        self.previous = previous
    }

    /// The bytes written so far.
    var count: Int { output.utf8.count + renderedBytes.count + (pending?.count ?? 0) }

    /// Writes `line` at `depth` (two spaces a level) and a newline.
    mutating func line(_ line: ProjectionLine, depth: Int) {
        flush()
        let at = count
        if renderedBytes.capacity == 0 { renderedBytes.reserveCapacity(512) }
        for _ in 0..<(2 * depth) { renderedBytes.append(UInt8(ascii: " ")) }
        renderedBytes.append(contentsOf: line.bytes)
        renderedBytes.append(UInt8(ascii: "\n"))
        let written = renderedBytes[(at - output.utf8.count)...]
        if prefixGrows {
            prefixGrows = sharedPrefix == at && previousHas(written, at: at)
            if prefixGrows { sharedPrefix = at + written.count }
        }
        if hasTail && !previousHas(written, at: at - tailShift) { hasTail = false }
    }

    /// Moves the rendered bytes into `output`.
    private mutating func joinRendered() {
        guard !renderedBytes.isEmpty else { return }
        reserveOnce()
        output += String(decoding: renderedBytes, as: UTF8.self)
        renderedBytes.removeAll(keepingCapacity: true)
    }

    /// Reserves room for about the previous output before the first write: an output grown from
    /// empty would be copied each time it doubles.
    private mutating func reserveOnce() {
        if output.isEmpty && !previous.isEmpty { output.reserveCapacity(previous.utf8.count + previous.utf8.count / 8) }
    }

    /// The output size past which a container of the same kind as its match is not compared whole
    /// but child by child: comparing a large container that differs somewhere, and then its children,
    /// would compare its unchanged part once per level on the way down to the change.
    static let wholeComparisonLimit = 2048

    /// Writes `node`: copies the output of `match` if its node is equal, calls `render` otherwise,
    /// which writes the node and returns its children's entries (offsets from the output's start).
    /// The entry returned has its offset from the output's start, its children's from its own.
    mutating func node(
        _ node: ViewNode, match: Match?, render: (inout ProjectionWriter, Match?) -> [RenderMemo.Entry]
    ) -> RenderMemo.Entry {
        let start = count
        if let match, match.isEqual
            || (match.entry.length <= Self.wholeComparisonLimit || match.ifSameKind(as: node) == nil) && match.node == node {
            copy(match.offset..<(match.offset + match.entry.length))
            reused += 1
            return RenderMemo.Entry(start: start, length: match.entry.length, children: match.entry.children)
        }
        rendered += 1
        var children = render(&self, match)
        let length = count - start
        guard length > Self.childlessEntryLimit else { return RenderMemo.Entry(start: start, length: length, children: []) }
        for index in children.indices { children[index].start -= start }
        return RenderMemo.Entry(start: start, length: length, children: children)
    }

    /// The output size up to which a node's entry keeps no entries of its children: a node this small is
    /// rendered again whole when it changes, which costs less than keeping its children's entries would
    /// on every render that copies it (each copied entry is a reference counted array, retained once in
    /// the new memo and released with the old one). A row of a long list is this small.
    static let childlessEntryLimit = 256

    /// Writes `nodes`, children of a node whose previous counterpart is `parent` (a match of the same
    /// kind, so that they go at the same depth), each through `append` with its match. A child that is
    /// the very same value as its counterpart (a row `ForEach(memoizing:)` gave back) is copied at once:
    /// an edit of one row of a long list costs little more than a copy for each of the others.
    mutating func children(
        _ nodes: [ViewNode], of parent: Match?, append: (ViewNode, Match?, inout ProjectionWriter) -> RenderMemo.Entry
    ) -> [RenderMemo.Entry] {
        guard let parent else { return nodes.map { append($0, nil, &self) } }
        let old = parent.node.renderedChildren
        let entries = parent.entry.children
        guard old.count == nodes.count, entries.count == nodes.count else {
            return nodes.indices.map { append(nodes[$0], parent.child($0, of: nodes), &self) }
        }
        var result: [RenderMemo.Entry] = []
        result.reserveCapacity(nodes.count)
        for index in nodes.indices {
            let entry = entries[index]
            if nodes[index].isIdentical(to: old[index]) {
                let from = parent.offset + entry.start
                let start = count
                copy(from..<(from + entry.length))
                reused += 1
                result.append(RenderMemo.Entry(start: start, length: entry.length, children: entry.children))
            } else {
                let match = Match(node: old[index], entry: entry, offset: parent.offset + entry.start)
                result.append(append(nodes[index], match, &self))
            }
        }
        return result
    }

    /// Writes `nodes` as roots, each matched with the node at its position in `previous` (a view, its
    /// output and that output's memo) through `append`; the output and its memo.
    static func roots(
        _ nodes: [ViewNode], reusing previous: (view: [ViewNode], output: String, memo: RenderMemo)?,
        append: (ViewNode, Match?, inout ProjectionWriter) -> RenderMemo.Entry
    ) -> (output: String, memo: RenderMemo) {
        var out = ProjectionWriter(previous: previous?.output ?? "")
        let roots = nodes.indices.map { index in
            let match = previous.flatMap { Match.align(index, of: nodes, old: $0.view, entries: $0.memo.roots, base: 0) }
            return append(nodes[index], match, &out)
        }
        return out.finish(roots: roots)
    }

    /// The output and its memo, with `roots` the roots' entries; the last call on the writer. Mutating,
    /// not consuming: as a consuming method its last appends went to a copy of the output, which copied
    /// the whole output once more (P1 large: 15M instructions in 120 patches).
    mutating func finish(roots: [RenderMemo.Entry]) -> (output: String, memo: RenderMemo) {
        flush()
        joinRendered()
        let written = output.utf8.count
        // the last run of copies ends the output where its bytes ended `previous`: that much is shared
        let suffix = hasTail && tailShift == written - previous.utf8.count ? written - tailStart : 0
        let shared = TextSplice.SharedEnds(prefix: sharedPrefix, suffix: suffix)
        return (output, RenderMemo(roots: roots, rendered: rendered, reused: reused, sharedEnds: shared))
    }

    /// Whether `previous` has `bytes` at `offset`.
    private func previousHas(_ bytes: ArraySlice<UInt8>, at offset: Int) -> Bool {
        guard offset >= 0, offset + bytes.count <= previous.utf8.count else { return false }
        return bytes.withUnsafeBufferPointer { bytes in
            previous.utf8.withContiguousStorageIfAvailable { old in
                memcmp(old.baseAddress! + offset, bytes.baseAddress!, bytes.count) == 0
            } ?? false
        }
    }

    private mutating func copy(_ range: Range<Int>) {
        if let pending, pending.upperBound == range.lowerBound {
            self.pending = pending.lowerBound..<range.upperBound
        } else {
            flush()
            joinRendered()
            pending = range
        }
    }

    /// Makes the pending copy (`renderedBytes` is empty while there is one).
    private mutating func flush() {
        guard let range = pending else { return }
        pending = nil
        let at = output.utf8.count
        if prefixGrows {
            prefixGrows = sharedPrefix == at && range.lowerBound == at
            if prefixGrows { sharedPrefix = range.upperBound }
        }
        if !hasTail || tailShift != at - range.lowerBound {
            (hasTail, tailStart, tailShift) = (true, at, at - range.lowerBound)
        }
        if output.isEmpty && range == 0..<previous.utf8.count {
            output = previous  // the whole previous output: shared, not copied
            return
        }
        reserveOnce()
        let bytes = previous.utf8
        output.append(contentsOf: previous[bytes.index(bytes.startIndex, offsetBy: range.lowerBound)..<bytes.index(bytes.startIndex, offsetBy: range.upperBound)])
    }
}

extension ViewNode {
    /// The nodes a projection renders inside this one, in the order of `RenderMemo` entries.
    fileprivate var renderedChildren: [ViewNode] {
        switch self {
        case .stack(_, let children), .list(let children), .listItem(_, _, let children), .section(_, let children),
             .component(_, let children):
            children
        case .accessible(_, let wrapped):
            [wrapped]
        default:
            []
        }
    }
}
