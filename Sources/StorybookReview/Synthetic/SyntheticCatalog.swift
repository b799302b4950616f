package import PropsCatalog

/// Generated components for trying the storybook at scale (`serve --synthetic N`): N stories,
/// ten per component, components grouped ten to a folder ("Synthetic/Group 07/Card 0712").
package enum SyntheticCatalog {
    /// The Props of a generated card.
    package struct CardProps: Codable, Sendable, Equatable {
        package var title: String
        package var body: String
        package var count: Int
        package var progress: Double
        package var isPinned: Bool
        package var tags: [String]
        package var status: Status
        package var open: Command
    }

    /// A generated card's status.
    package enum Status: String, Codable, Sendable, CaseIterable {
        case draft, review, published, archived
    }

    package static let variantNames = ["Default", "Empty", "Long text", "Pinned", "Draft", "Review", "Published", "Archived", "Many tags", "Done"]

    /// `count` stories in `ceil(count / 10)` components.
    package static func components(count: Int) throws(CatalogError) -> [AnyComponent] {
        var components: [AnyComponent] = []
        var remaining = count
        var index = 0
        while remaining > 0 {
            let variants = min(remaining, variantNames.count)
            components.append(try AnyComponent(component(index, variants: variants)))
            remaining -= variants
            index += 1
        }
        return components
    }

    /// "Synthetic/Generated": one component with `count` generated stories (a title each, from its
    /// `Default` variant), for the overview page at scale (`serve --synthetic-generated N`).
    package static func generated(count: Int) throws(CatalogError) -> AnyComponent {
        let titles = (1...max(1, count)).map { "Generated card \($0)" + ($0 % 7 == 0 ? " with a title long enough to wrap" : "") }
        return try AnyComponent(component(0, variants: 1, title: "Synthetic/Generated")
            .description("A card with \(count) generated titles: the overview page at scale.")
            .permutations(from: "Default", over: "/title", limit: max(1, count))
            .values("/title", titles))
    }

    /// One item of the long list.
    package struct ListEntry: Codable, Sendable, Equatable {
        package var id: Int
        package var title: String
        package var detail: String
        package var done: Bool
        package var priority: Int
    }

    /// The Props of the long list: a heading and `items`.
    package struct ListProps: Codable, Sendable, Equatable {
        package var heading: String
        package var items: [ListEntry]
    }

    /// "Synthetic/Long list": one story whose props hold a list of `count` items (about 100 bytes of
    /// JSON each, so 500 make about 50 KB; the view shows each title and priority), for edits that
    /// touch one item of a large value
    /// (`serve --synthetic-list N`; the benchmark's P1 large row patches `/items/K/title`).
    package static func longList(count: Int) throws(CatalogError) -> AnyComponent {
        let items = (0..<max(0, count)).map { index in
            ListEntry(id: index, title: "Item \(index)", detail: "The detail text of item number \(index) in the list",
                      done: index % 3 == 0, priority: index % 5)
        }
        let component = Component<ListProps>("Synthetic/Long list") { props in
            Section(props.heading) {
                List {
                    ForEach(memoizing: props.items) { item in
                        HStack {
                            Text(item.title)
                            Badge("P\(item.priority)", tone: item.done ? .success : .neutral)
                        }
                    }
                }
            }
        }
        .description("A list of \(count) items: edits of one item in a large value.")
        .variant("Default", ListProps(heading: "A long list", items: items))
        return try AnyComponent(component)
    }

    package static func component(_ index: Int, variants: Int, title: String? = nil) -> Component<CardProps> {
        let number = String(index).leftPadded(to: 4)
        let title = title ?? "Synthetic/Group \(String(index / 10).leftPadded(to: 3))/Card \(number)"
        var component = Component<CardProps>(title) { props in
            Section(props.title) {
                HStack {
                    Badge(props.status.rawValue, tone: props.status == .published ? .success : .neutral)
                    if props.isPinned { Badge("pinned", tone: .info) }
                }
                Text(props.body)
                ProgressView("Progress", fraction: props.progress)
                if !props.tags.isEmpty {
                    List { ForEach(props.tags) { Text($0) } }
                }
                Button("Open (\(props.count))", command: props.open)
            }
        }
        for (position, name) in variantNames.prefix(variants).enumerated() {
            component = component.variant(name, props(index: index, variant: position))
        }
        return component.suggesting { props, invocation in
            guard invocation.command == props.open else { return nil }
            var next = props
            next.count += 1
            return next
        }
    }

    package static func props(index: Int, variant: Int) -> CardProps {
        CardProps(
            title: variant == 1 ? "" : "Card \(index)",
            body: variant == 2 ? String(repeating: "A long body of text that wraps. ", count: 20) : "Body of card \(index).",
            count: variant * 3, progress: Double(variant) / 9, isPinned: variant == 3,
            tags: variant == 8 ? (0..<12).map { "tag-\($0)" } : variant == 1 ? [] : ["ui", "card"],
            status: Status.allCases[variant % Status.allCases.count], open: "open")
    }
}

extension String {
    fileprivate func leftPadded(to width: Int) -> String {
        count >= width ? self : String(repeating: "0", count: width - count) + self
    }
}
