public import PropsCatalog

/// Generated components for trying the storybook at scale (`serve --synthetic N`): N stories,
/// ten per component, components grouped ten to a folder ("Synthetic/Group 07/Card 0712").
public enum SyntheticCatalog {
    /// The Props of a generated card.
    public struct CardProps: Codable, Sendable, Equatable {
        public var title: String
        public var body: String
        public var count: Int
        public var progress: Double
        public var isPinned: Bool
        public var tags: [String]
        public var status: Status
        public var open: Command
    }

    /// A generated card's status.
    public enum Status: String, Codable, Sendable, CaseIterable {
        case draft, review, published, archived
    }

    package static let variantNames = ["Default", "Empty", "Long text", "Pinned", "Draft", "Review", "Published", "Archived", "Many tags", "Done"]

    /// `count` stories in `ceil(count / 10)` components.
    public static func components(count: Int) throws(CatalogError) -> [AnyComponent] {
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

    package static func component(_ index: Int, variants: Int) -> Component<CardProps> {
        let number = String(index).leftPadded(to: 4)
        let title = "Synthetic/Group \(String(index / 10).leftPadded(to: 3))/Card \(number)"
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
