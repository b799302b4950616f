public import Foundation
public import PropsCatalog

/// A colour theme: the key of an enum-keyed dictionary (which Swift encodes as a flat array).
public enum CartTheme: String, Codable, Sendable, CaseIterable {
    case light, dark, highContrast
}

/// One line of a cart: money as `Decimal`, which keeps its decimal digits exactly.
public struct CartLine: Codable, Sendable, Equatable {
    public var id: String
    public var name: String
    public var price: Decimal
    public var quantity: Int

    public init(id: String, name: String, price: Decimal, quantity: Int) {
        self.id = id
        self.name = name
        self.price = price
        self.quantity = quantity
    }
}

/// The commands of a cart line, typed, with the line's id in them (`"increment:mug"` on the wire).
public enum CartLineCommand: CommandRepresentable, Equatable {
    case increment(id: String)
    case decrement(id: String)

    public init(from decoder: any Decoder) throws {
        let text = try decoder.singleValueContainer().decode(String.self)
        let parts = text.split(separator: ":", maxSplits: 1).map(String.init)
        switch (parts.first, parts.count) {
        case ("increment", 2): self = .increment(id: parts[1])
        case ("decrement", 2): self = .decrement(id: parts[1])
        default: throw DecodingError.dataCorrupted(.init(codingPath: decoder.codingPath, debugDescription: "not a cart line command: \(text)"))
        }
    }

    public func encode(to encoder: any Encoder) throws {
        var container = encoder.singleValueContainer()
        switch self {
        case .increment(let id): try container.encode("increment:\(id)")
        case .decrement(let id): try container.encode("decrement:\(id)")
        }
    }
}

/// The commands of the cart itself: a `String`-backed enum.
public enum CartCommand: String, CommandRepresentable, CaseIterable {
    case checkout, clear
}

/// "Shop/Cart": what Swift encodes in hash order (a `Set`, an enum-keyed dictionary), money,
/// a 64-bit counter beyond JavaScript's safe integers, a date with microseconds, and embedded lines.
public struct CartProps: Codable, Sendable, Equatable {
    public var lines: [CartLine]
    public var tags: Set<String>
    public var themeVisits: [CartTheme: Int]
    public var visits: Int64
    public var updatedAt: Date
    public var note: String
    public var isCheckedOut: Bool
}

public enum Cart {
    /// "Shop/Cart Line": one line with its own typed commands; the cart embeds one per line.
    public static let line = Component<CartLine>("Shop/Cart Line") { line in
        HStack {
            Text("\(line.name) × \(line.quantity)")
            Text("\(line.price * Decimal(line.quantity))")
            Button("−", command: CartLineCommand.decrement(id: line.id))
            Button("+", command: CartLineCommand.increment(id: line.id))
        }
    }
    .variant("Mug", CartLine(id: "mug", name: "Mug", price: Decimal(string: "19.99")!, quantity: 1))
    .variant("Tea", CartLine(id: "tea", name: "Tea", price: Decimal(string: "4.35")!, quantity: 3))
    .suggesting(CartLineCommand.self) { line, invocation in
        var next = line
        switch invocation.command {
        case .increment(let id) where id == line.id: next.quantity += 1
        case .decrement(let id) where id == line.id: next.quantity = max(0, line.quantity - 1)
        default: return nil
        }
        return next
    }

    static let filled = CartProps(
        lines: [
            CartLine(id: "mug", name: "Mug", price: Decimal(string: "19.99")!, quantity: 2),
            CartLine(id: "tea", name: "Tea", price: Decimal(string: "4.35")!, quantity: 1),
        ],
        tags: ["gift", "express", "fragile", "eco", "bulk", "sale"],
        themeVisits: [.light: 3, .dark: 5, .highContrast: 1],
        visits: 9_007_199_254_740_993,
        updatedAt: Date(timeIntervalSince1970: 1_795_000_000.123456),
        note: "Leave at the door",
        isCheckedOut: false)

    public static let component = Component<CartProps>("Shop/Cart") { props in
        VStack {
            Heading("Cart")
            if props.isCheckedOut {
                Badge("Checked out", tone: .success)
            }
            ForEach(props.lines) { line in
                Embed(Cart.line, line)
            }
            Text("Total: \(props.lines.reduce(Decimal(0)) { $0 + $1.price * Decimal($1.quantity) })")
            Text("Tags: \(props.tags.sorted().joined(separator: ", "))")
            Text("Theme visits: \(props.themeVisits.sorted { $0.key.rawValue < $1.key.rawValue }.map { "\($0.key.rawValue) \($0.value)" }.joined(separator: ", "))")
            Text("Visits: \(props.visits)")
            Text("Updated: \(ISO8601.string(from: props.updatedAt))")
            Text(props.note)
            Button("Check out", command: CartCommand.checkout)
            Button("Clear", command: CartCommand.clear)
        }
    }
    .variant("Filled", filled)
    .variant("Empty", CartProps(lines: [], tags: [], themeVisits: [:], visits: 0,
                                updatedAt: Date(timeIntervalSince1970: 1_795_000_000), note: "", isCheckedOut: false))
    .hint("/note", .multiline)
    .suggesting(CartCommand.self) { props, invocation in
        var next = props
        switch invocation.command {
        case .checkout: next.isCheckedOut = true
        case .clear: next.lines = []
        }
        return next
    }
}
