import DemoCatalog
@testable import PropsCatalog
import Testing

/// `Projections(view, reusing: previous)` copies the output of unchanged nodes from the previous
/// projections: it must give exactly what rendering the whole view gives, and really copy.
@Suite struct ProjectionReuseTests {
    /// Rounds of random edits of random views: each version's projections are made from the previous
    /// version's (themselves made by reuse), and compared with a fresh render.
    @Test(arguments: 0..<8)
    func reusedProjectionsEqualAFreshRender(seed: UInt64) {
        var random = SeededGenerator(seed: seed)
        var view = (0..<Int.random(in: 1...4, using: &random)).map { _ in RandomView.node(depth: 0, using: &random) }
        if seed.isMultiple(of: 2) { view = [RandomView.list(rows: 40, using: &random)] }
        var projections = Projections(view)
        var copied = 0
        for round in 0..<150 {
            view = RandomView.edit(view, using: &random)
            let reused = Projections(view, reusing: projections)
            let fresh = Projections(view)
            #expect(reused.text == fresh.text, "seed \(seed), round \(round)")
            #expect(reused.html == fresh.html, "seed \(seed), round \(round)")
            guard reused.text == fresh.text, reused.html == fresh.html else { return }
            // the ends the memos say the outputs share with the previous ones, they do share
            let shared = reused.sharedEnds(with: projections)
            for (ends, old, new) in [(shared.text, projections.text, reused.text), (shared.html, projections.html, reused.html)] {
                let (prefix, suffix) = Self.commonEnds(Array(old.utf8), Array(new.utf8))
                #expect(ends.prefix <= prefix && ends.suffix <= suffix, "seed \(seed), round \(round): \(ends) of \((prefix, suffix))")
            }
            copied += reused.textMemo.reused + reused.htmlMemo.reused
            projections = reused
        }
        #expect(copied > 300, "\(copied)")  // the rounds do copy rendered output
    }

    /// The longest common start and end of two byte strings, each on its own.
    static func commonEnds(_ old: [UInt8], _ new: [UInt8]) -> (prefix: Int, suffix: Int) {
        let shorter = min(old.count, new.count)
        let prefix = (0..<shorter).first { old[$0] != new[$0] } ?? shorter
        let suffix = (0..<shorter).first { old[old.count - 1 - $0] != new[new.count - 1 - $0] } ?? shorter
        return (prefix, suffix)
    }

    /// Projections made from an unrelated view's still render the new view exactly.
    @Test func reusingUnrelatedProjectionsRendersTheNewView() {
        var random = SeededGenerator(seed: 99)
        for _ in 0..<50 {
            let old = (0..<3).map { _ in RandomView.node(depth: 0, using: &random) }
            let new = (0..<Int.random(in: 0...3, using: &random)).map { _ in RandomView.node(depth: 0, using: &random) }
            let reused = Projections(new, reusing: Projections(old))
            #expect(reused.text == TextProjection.render(new))
            #expect(reused.html == HTMLProjection.fragment(new))
        }
    }

    /// Every demo story, rendered from the projections of each story of the same component, in the
    /// standard environment and in others.
    @Test func demoStoriesReusingTheirSiblingsEqualAFreshRender() throws {
        let catalog = try DemoCatalog.make()
        let environments = [
            ViewEnvironment.standard, ViewEnvironment(colorScheme: .dark, dynamicType: .accessibility3, locale: "de-DE", width: 320),
            ViewEnvironment(locale: "ar-EG"),
        ]
        for component in catalog.components {
            let stories = catalog.stories.filter { $0.component.id == component.id }
            let views = environments.flatMap { environment in stories.compactMap { try? $0.registeredView(in: environment).get() } }
            let projections = views.map { Projections($0) }
            for (index, view) in views.enumerated() {
                for previous in projections {
                    let reused = Projections(view, reusing: previous)
                    #expect(reused.text == projections[index].text, "\(component.id)")
                    #expect(reused.html == projections[index].html, "\(component.id)")
                }
            }
        }
    }

    /// An edit of one row of a 500-row list renders the nodes on the way to that row, not the list.
    @Test func anEditOfOneRowRendersOnlyThatRow() {
        func view(_ titles: [String]) -> [ViewNode] {
            [.section(title: "A long list", [.list(titles.map { title in
                .listItem(isSelected: false, command: nil, [.stack(.horizontal, [.text(title), .badge("P1", tone: .neutral)])])
            })])]
        }
        var titles = (0..<500).map { "Item \($0)" }
        let before = Projections(view(titles))
        #expect(before.textMemo.rendered == 2002 && before.htmlMemo.rendered == 2002)

        titles[250] = "Item <250> & more"
        let after = Projections(view(titles), reusing: before)
        #expect(after.text == TextProjection.render(view(titles)) && after.html == HTMLProjection.fragment(view(titles)))
        // section, list, and the row whole (its stack, text and badge: a row is too small to keep its
        // children's entries); the other 499 rows are copied
        #expect(after.textMemo.rendered == 6 && after.htmlMemo.rendered == 6)
        #expect(after.textMemo.reused == 499 && after.htmlMemo.reused == 499)
        // what the outputs share with the previous ones is known up to the row: the delta compares only that
        let shared = after.sharedEnds(with: before)
        for (ends, output) in [(shared.text, after.text), (shared.html, after.html)] {
            #expect(ends.prefix + ends.suffix >= output.utf8.count - 300, "\(ends) of \(output.utf8.count) \(Self.commonEnds(Array((output == after.text ? before.text : before.html).utf8), Array(output.utf8)))")
        }
        #expect(after.sharedEnds(with: Projections(view(titles))) == (.none, .none))  // not what they were made from

        // the section and the list are large, so they are compared child by child (and rendered, as
        // their first lines); each row is compared whole and copied
        let unchanged = Projections(view(titles), reusing: after)
        #expect(unchanged.textMemo.rendered == 2 && unchanged.htmlMemo.rendered == 2)
        #expect(unchanged.textMemo.reused == 500 && unchanged.htmlMemo.reused == 500)
        // a row keeps no entries of its children: copying it retains nothing
        let rows = unchanged.htmlMemo.roots[0].children[0].children
        #expect(rows.count == 500 && rows.allSatisfy { $0.children.isEmpty })
        #expect(unchanged == after)

        // an insertion at the top matches the rows after it by their distance from the end; the new row
        // is rendered where the old first row was
        titles.insert("New", at: 0)
        let inserted = Projections(view(titles), reusing: after)
        #expect(inserted.text == TextProjection.render(view(titles)) && inserted.html == HTMLProjection.fragment(view(titles)))
        #expect(inserted.textMemo.rendered == 6 && inserted.htmlMemo.rendered == 6)
    }
}

/// Random views and random edits of them, with strings that need escaping and multi-byte characters.
private enum RandomView {
    static let words = ["Item", "Ada", "é", "<b>", "a & b", "\"quoted\"", "line\nbreak", "•", "\u{2028}", "tab\t", "'", "日本", ""]

    static func string(using random: inout SeededGenerator) -> String {
        (0..<Int.random(in: 1...3, using: &random)).map { _ in words.randomElement(using: &random)! }.joined(separator: " ")
    }

    static func command(using random: inout SeededGenerator) -> Command? {
        Bool.random(using: &random) ? nil : Command(["open", "pick", "delete \"x\"", "go<"].randomElement(using: &random)!)
    }

    static func leaf(using random: inout SeededGenerator) -> ViewNode {
        switch Int.random(in: 0..<12, using: &random) {
        case 0: .text(string(using: &random))
        case 1: .heading(string(using: &random), level: Int.random(in: 1...3, using: &random))
        case 2: .button(label: string(using: &random), command: command(using: &random))
        case 3: .textField(label: string(using: &random), value: string(using: &random), isSecure: Bool.random(using: &random), command: command(using: &random))
        case 4: .toggle(label: string(using: &random), isOn: Bool.random(using: &random), command: command(using: &random))
        case 5: .image(url: ["https://x/a.png", "javascript:x", "data:image/png;base64,AA"].randomElement(using: &random)!, alt: string(using: &random))
        case 6: .progress(label: string(using: &random), fraction: Bool.random(using: &random) ? nil : Double.random(in: 0...1, using: &random))
        case 7: .badge(string(using: &random), tone: BadgeTone.allCases.randomElement(using: &random)!)
        case 8: .divider
        case 9: .iconButton(icon: ["trash", "plus", "unknown"].randomElement(using: &random)!, command: command(using: &random))
        default: .text("Item \(Int.random(in: 0..<5, using: &random))")
        }
    }

    static func info(using random: inout SeededGenerator) -> AccessibilityInfo {
        AccessibilityInfo(
            label: Bool.random(using: &random) ? string(using: &random) : nil, hint: Bool.random(using: &random) ? "hint" : nil,
            value: Bool.random(using: &random) ? "50 & more" : nil, isHidden: Int.random(in: 0..<5, using: &random) == 0,
            headingLevel: Bool.random(using: &random) ? 2 : nil)
    }

    static func node(depth: Int, using random: inout SeededGenerator) -> ViewNode {
        guard depth < 4, Int.random(in: 0..<3, using: &random) == 0 else { return leaf(using: &random) }
        func children() -> [ViewNode] { (0..<Int.random(in: 0...4, using: &random)).map { _ in node(depth: depth + 1, using: &random) } }
        switch Int.random(in: 0..<7, using: &random) {
        case 0: return .stack(Bool.random(using: &random) ? .vertical : .horizontal, children())
        case 1: return .list(children())
        case 2: return .listItem(isSelected: Bool.random(using: &random), command: command(using: &random), children())
        case 3: return .section(title: string(using: &random), children())
        case 4: return .component(title: string(using: &random), children())
        case 5: return .accessible(info(using: &random), node(depth: depth + 1, using: &random))
        default: return list(rows: Int.random(in: 0...8, using: &random), using: &random)
        }
    }

    static func list(rows: Int, using random: inout SeededGenerator) -> ViewNode {
        .list((0..<rows).map { index in
            .listItem(isSelected: index == 0, command: Bool.random(using: &random) ? "pick" : nil,
                      [.stack(.horizontal, [.text("Item \(index)"), .badge("P\(index % 5)", tone: .neutral), .button(label: "Delete", command: "delete")])])
        })
    }

    /// `view` with one random edit somewhere: a changed, inserted, removed, moved, wrapped or unwrapped node.
    static func edit(_ view: [ViewNode], using random: inout SeededGenerator) -> [ViewNode] {
        var view = view
        if view.isEmpty || Int.random(in: 0..<8, using: &random) == 0 {
            return editChildren(view, using: &random)
        }
        let index = Int.random(in: view.indices, using: &random)
        view[index] = edit(view[index], using: &random)
        return view
    }

    private static func edit(_ node: ViewNode, using random: inout SeededGenerator) -> ViewNode {
        let descend = Int.random(in: 0..<4, using: &random) != 0
        switch node {
        case .stack(let axis, let nodes):
            if descend, !nodes.isEmpty { return .stack(axis, edit(nodes, using: &random)) }
            return Bool.random(using: &random) ? .stack(axis == .vertical ? .horizontal : .vertical, nodes) : .stack(axis, editChildren(nodes, using: &random))
        case .list(let nodes):
            if descend, !nodes.isEmpty { return .list(edit(nodes, using: &random)) }
            return .list(editChildren(nodes, using: &random))
        case .listItem(let isSelected, let command, let nodes):
            if descend, !nodes.isEmpty { return .listItem(isSelected: isSelected, command: command, edit(nodes, using: &random)) }
            switch Int.random(in: 0..<3, using: &random) {
            case 0: return .listItem(isSelected: !isSelected, command: command, nodes)
            case 1: return .listItem(isSelected: isSelected, command: command == nil ? "pick" : nil, nodes)
            default: return .listItem(isSelected: isSelected, command: command, editChildren(nodes, using: &random))
            }
        case .section(let title, let nodes):
            if descend, !nodes.isEmpty { return .section(title: title, edit(nodes, using: &random)) }
            return Bool.random(using: &random) ? .section(title: string(using: &random), nodes) : .section(title: title, editChildren(nodes, using: &random))
        case .component(let title, let nodes):
            if descend, !nodes.isEmpty { return .component(title: title, edit(nodes, using: &random)) }
            return Bool.random(using: &random) ? .component(title: string(using: &random), nodes) : .component(title: title, editChildren(nodes, using: &random))
        case .accessible(let info, let wrapped):
            if descend { return .accessible(info, edit(wrapped, using: &random)) }
            return Bool.random(using: &random) ? .accessible(self.info(using: &random), wrapped) : wrapped
        default:
            switch Int.random(in: 0..<4, using: &random) {
            case 0: return .stack(.vertical, [node])  // deeper
            case 1: return .accessible(info(using: &random), node)  // attributes passed down
            default: return leaf(using: &random)
            }
        }
    }

    /// `nodes` with one inserted, removed, moved or unwrapped.
    private static func editChildren(_ nodes: [ViewNode], using random: inout SeededGenerator) -> [ViewNode] {
        var nodes = nodes
        switch nodes.isEmpty ? 0 : Int.random(in: 0..<5, using: &random) {
        case 0: nodes.insert(node(depth: 2, using: &random), at: Int.random(in: 0...nodes.count, using: &random))
        case 1: nodes.remove(at: Int.random(in: nodes.indices, using: &random))
        case 2: nodes.swapAt(Int.random(in: nodes.indices, using: &random), Int.random(in: nodes.indices, using: &random))
        case 3: nodes.append(nodes.removeFirst())
        default:
            let index = Int.random(in: nodes.indices, using: &random)
            switch nodes[index] {
            case .stack(_, let children), .list(let children), .listItem(_, _, let children), .section(_, let children), .component(_, let children):
                nodes.replaceSubrange(index...index, with: children)  // shallower
            default:
                nodes[index] = .section(title: "Wrapped", [nodes[index]])
            }
        }
        return nodes
    }
}
