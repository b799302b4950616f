/// Anything that stands for zero or more view nodes inside a `@ViewBuilder` block.
public protocol ViewConvertible {
    var viewNodes: [ViewNode] { get }
}

extension ViewNode: ViewConvertible {
    /// The element itself, as a one-node view.
    @inlinable public var viewNodes: [ViewNode] { [self] }
}

/// Builds lists of view nodes with `if`, `switch` and `for` inside, as SwiftUI does.
@resultBuilder
public enum ViewBuilder {
    /// An element of the view.
    @inlinable
    public static func buildExpression(_ element: some ViewConvertible) -> [ViewNode] {
        element.viewNodes
    }

    /// Nodes already built (another component's view).
    @inlinable
    public static func buildExpression(_ nodes: [ViewNode]) -> [ViewNode] {
        nodes
    }

    /// The nodes of a block, in order.
    @inlinable
    public static func buildBlock(_ parts: [ViewNode]...) -> [ViewNode] {
        buildArray(parts)
    }

    // Blocks of one and two parts, the most common ones (a row's stack, a list's single `ForEach`),
    // skip the variadic array and the copy: about a quarter of a 500-row list's view.

    /// The nodes of a block of one part: that part as it is.
    @inlinable
    public static func buildBlock(_ part: [ViewNode]) -> [ViewNode] {
        part
    }

    /// The nodes of a block of two parts, in order.
    @inlinable
    public static func buildBlock(_ first: [ViewNode], _ second: [ViewNode]) -> [ViewNode] {
        first + second
    }

    /// The nodes of an `if` without `else` (none when it is false).
    @inlinable
    public static func buildOptional(_ part: [ViewNode]?) -> [ViewNode] {
        part ?? []
    }

    /// The nodes of the first branch of an `if`/`else` or `switch`.
    @inlinable
    public static func buildEither(first part: [ViewNode]) -> [ViewNode] {
        part
    }

    /// The nodes of the second branch of an `if`/`else` or `switch`.
    @inlinable
    public static func buildEither(second part: [ViewNode]) -> [ViewNode] {
        part
    }

    /// The nodes of a `for` loop.
    @inlinable
    public static func buildArray(_ parts: [[ViewNode]]) -> [ViewNode] {
        var nodes: [ViewNode] = []
        nodes.reserveCapacity(parts.reduce(0) { $0 + $1.count })
        for part in parts { nodes.append(contentsOf: part) }
        return nodes
    }

    /// The nodes of an `if #available` branch.
    @inlinable
    public static func buildLimitedAvailability(_ part: [ViewNode]) -> [ViewNode] {
        part
    }
}
