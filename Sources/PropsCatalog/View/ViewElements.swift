// The vocabulary of the headless view: small values that become `ViewNode`s in a `@ViewBuilder`.

/// Children stacked top to bottom.
public struct VStack: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// A vertical stack of `content`.
    @inlinable
    public init(@ViewBuilder _ content: () -> [ViewNode]) {
        viewNodes = [.stack(.vertical, content())]
    }
}

/// Children side by side.
public struct HStack: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// A horizontal stack of `content`.
    @inlinable
    public init(@ViewBuilder _ content: () -> [ViewNode]) {
        viewNodes = [.stack(.horizontal, content())]
    }
}

/// A run of text.
public struct Text: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// The text `text`.
    @inlinable
    public init(_ text: String) {
        viewNodes = [.text(text)]
    }
}

/// A heading; level 1 is the most important.
public struct Heading: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// A heading of `level` 1 to 6.
    @inlinable
    public init(_ text: String, level: Int = 1) {
        viewNodes = [.heading(text, level: min(max(level, 1), 6))]
    }
}

/// A button that sends a command.
public struct Button: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// A button labelled `label` that sends `command` (nil: it sends nothing).
    @inlinable
    public init(_ label: String, command: Command?) {
        viewNodes = [.button(label: label, command: command)]
    }

    /// A button showing only an icon (`trash`, `plus`, `xmark`, `chevron.left`...): give it an
    /// `.accessibilityLabel(_:)`, or the audit reports it as a control without a name.
    @inlinable
    public init(icon: String, command: Command?) {
        viewNodes = [.iconButton(icon: icon, command: command)]
    }
}

/// A text field whose edits send `command` with the new text as payload.
public struct TextField: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// A field showing `value`; `isSecure` hides what is typed.
    @inlinable
    public init(_ label: String, value: String, isSecure: Bool = false, command: Command? = nil) {
        viewNodes = [.textField(label: label, value: value, isSecure: isSecure, command: command)]
    }
}

/// An on/off switch.
public struct Toggle: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// A switch labelled `label`, on when `isOn`.
    @inlinable
    public init(_ label: String, isOn: Bool, command: Command? = nil) {
        viewNodes = [.toggle(label: label, isOn: isOn, command: command)]
    }
}

/// A list; each element of `content` that is not already a list item becomes one.
public struct List: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// A list of `content`.
    @inlinable
    public init(@ViewBuilder _ content: () -> [ViewNode]) {
        // In a story's render, the item around a row `ForEach(memoizing:)` gave back is given back too.
        guard let memo = RowMemo.active else {
            viewNodes = [.list(content().map { node in
                if case .listItem = node { node } else { Self.item(around: node) }
            })]
            return
        }
        let mark = memo.handedOutCount
        var cursor = mark
        let items = content().map { node -> ViewNode in
            if case .listItem = node { return node }
            return memo.listItem(around: node, cursor: &cursor, Self.item(around:))
        }
        memo.forgetHandedOut(from: mark)
        viewNodes = [.list(items)]
    }

    /// The plain list item a node that is not a `ListItem` is shown in.
    @usableFromInline
    static func item(around node: ViewNode) -> ViewNode {
        .listItem(isSelected: false, command: nil, [node])
    }
}

/// One item of a list.
public struct ListItem: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// A list item, selected or not, that sends `command` when chosen.
    @inlinable
    public init(isSelected: Bool = false, command: Command? = nil, @ViewBuilder _ content: () -> [ViewNode]) {
        viewNodes = [.listItem(isSelected: isSelected, command: command, content())]
    }
}

/// One view per element of a collection: `ForEach(items) { item in Text(item.name) }`.
public struct ForEach: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// The views `content` makes of each of `elements`, in order.
    @inlinable
    public init<Elements: Sequence>(_ elements: Elements, @ViewBuilder _ content: (Elements.Element) -> [ViewNode]) {
        // A loop rather than `flatMap`, whose appends go through the generic sequence they are given
        // (about a fifth of a 500-row list's view).
        var nodes: [ViewNode] = []
        nodes.reserveCapacity(elements.underestimatedCount)
        for element in elements {
            let made = content(element)
            // one node, the usual row, appended as one (an append of an array copies through its elements' witnesses)
            if made.count == 1 { nodes.append(made[0]) } else { nodes.append(contentsOf: made) }
        }
        viewNodes = nodes
    }

    /// SwiftUI's spelling, `ForEach(items, id: \.id) { item in ... }`, so that a view written for
    /// SwiftUI compiles as it is. The projections place rows by position and keep no state per row,
    /// so `id` is not read.
    @inlinable
    public init<Elements: Sequence, ID: Hashable>(
        _ elements: Elements, id: KeyPath<Elements.Element, ID>, @ViewBuilder _ content: (Elements.Element) -> [ViewNode]
    ) {
        self.init(elements, content)
    }

    /// One view per element of a collection, each a function of its element alone: `content` reads
    /// nothing but the element (no other props, no value it captures). A story's server keeps each
    /// row's nodes and gives them back for an element identical to one it showed the last time, so an
    /// edit of one item of a long list builds, compares and sends that item's row, not the list's.
    /// Without a server (a snapshot, a test) it is `init(_:_:)`.
    @inlinable
    public init<Elements: Sequence>(
        memoizing elements: Elements, fileID: StaticString = #fileID, line: Int = #line, column: Int = #column,
        @ViewBuilder _ content: (Elements.Element) -> [ViewNode]
    ) {
        let site = RowMemo.Site(file: fileID, line: line, column: column, element: Elements.Element.self)
        guard let memo = RowMemo.active, let rows = memo.rows(at: site, of: Elements.Element.self) else {
            self.init(elements, content)
            return
        }
        // An array's elements are read where they are: a copy of each would retain what it holds.
        let stored: [ViewNode]? = elements.withContiguousStorageIfAvailable { buffer in
            var nodes: [ViewNode] = []
            nodes.reserveCapacity(buffer.count)
            for index in buffer.indices {
                Self.appendRow(of: buffer.baseAddress! + index, memo: memo, rows: rows, content, to: &nodes)
            }
            return nodes
        }
        if let stored {
            self.init(made: stored)
            return
        }
        var nodes: [ViewNode] = []
        nodes.reserveCapacity(elements.underestimatedCount)
        for element in elements {
            withUnsafePointer(to: element) { Self.appendRow(of: $0, memo: memo, rows: rows, content, to: &nodes) }
        }
        self.init(made: nodes)
    }

    @usableFromInline
    init(made nodes: [ViewNode]) {
        viewNodes = nodes
    }

    /// Appends to `nodes` the row of the element at `element`: the one kept for an identical element,
    /// or `content`'s, kept.
    @inlinable
    static func appendRow<Element>(
        of element: UnsafePointer<Element>, memo: RowMemo, rows: RowMemo.SiteRows, _ content: (Element) -> [ViewNode],
        to nodes: inout [ViewNode]
    ) {
        let bytes = UnsafeRawBufferPointer(start: element, count: MemoryLayout<Element>.size)
        guard !memo.appendKeptNodes(for: bytes, in: rows, to: &nodes) else { return }
        let mark = memo.handedOutCount
        memo.keep(element.pointee, nodes: content(element.pointee), in: rows, handedOutBefore: mark, appendingTo: &nodes)
    }
}

/// An image by URL with its text alternative.
public struct Image: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// An image at `url` described by `alt`.
    @inlinable
    public init(url: String, alt: String) {
        viewNodes = [.image(url: url, alt: alt)]
    }

    /// A decorative image: no text alternative, left out of what assistive technology announces.
    @inlinable
    public init(decorative url: String) {
        viewNodes = [.accessible(AccessibilityInfo(isHidden: true), .image(url: url, alt: ""))]
    }
}

/// Determinate progress from 0 to 1.
public struct ProgressView: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// A progress bar labelled `label` at `fraction` (clamped to 0...1).
    @inlinable
    public init(_ label: String, fraction: Double) {
        viewNodes = [.progress(label: label, fraction: min(max(fraction, 0), 1))]
    }
}

/// Indeterminate progress.
public struct Spinner: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// A spinner announced as `label`.
    @inlinable
    public init(_ label: String = "Loading") {
        viewNodes = [.progress(label: label, fraction: nil)]
    }
}

/// A short status label.
public struct Badge: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// A badge with `text` in `tone`.
    @inlinable
    public init(_ text: String, tone: BadgeTone = .neutral) {
        viewNodes = [.badge(text, tone: tone)]
    }
}

/// A titled group.
public struct Section: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// A group titled `title` around `content`.
    @inlinable
    public init(_ title: String, @ViewBuilder _ content: () -> [ViewNode]) {
        viewNodes = [.section(title: title, content())]
    }
}

/// A separator line.
public struct Divider: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode] = [.divider]
    /// A separator.
    @inlinable
    public init() {}
}

/// A child component's view from the child's Props, embedded under the child's title.
///
/// A command used inside it reaches the child's suggestion function; what the child suggests is
/// written back into the parent's props where `props` came from (found by value), and the parent's
/// own suggestion function sees the command next (docs/registering.md, "Embedded children").
public struct Embed: ViewConvertible {
    /// The nodes this element stands for.
    public let viewNodes: [ViewNode]
    /// The view of `component` for `props`, embedded under its title.
    public init<Child>(_ component: Component<Child>, _ props: Child) {
        guard let recorder = EmbedRecorder.current else {
            viewNodes = [.component(title: component.title, component.view(props))]
            return
        }
        // The child's own children are the child's business: it routes to them itself.
        let nodes = EmbedRecorder.$current.withValue(nil) { component.view(props) }
        recorder.record(EmbeddedChild(component, props: props, nodes: nodes))
        viewNodes = [.component(title: component.title, nodes)]
    }
}
