/// Anything that stands for zero or more view nodes inside a `@ViewBuilder` block.
public protocol ViewConvertible {
    var viewNodes: [ViewNode] { get }
}

extension ViewNode: ViewConvertible {
    /// The element itself, as a one-node view.
    public var viewNodes: [ViewNode] { [self] }
}

/// Builds lists of view nodes with `if`, `switch` and `for` inside, as SwiftUI does.
@resultBuilder
public enum ViewBuilder {
    /// An element of the view.
    public static func buildExpression(_ element: some ViewConvertible) -> [ViewNode] {
        element.viewNodes
    }

    /// Nodes already built (another component's view).
    public static func buildExpression(_ nodes: [ViewNode]) -> [ViewNode] {
        nodes
    }

    /// The nodes of a block, in order.
    public static func buildBlock(_ parts: [ViewNode]...) -> [ViewNode] {
        parts.flatMap { $0 }
    }

    /// The nodes of an `if` without `else` (none when it is false).
    public static func buildOptional(_ part: [ViewNode]?) -> [ViewNode] {
        part ?? []
    }

    /// The nodes of the first branch of an `if`/`else` or `switch`.
    public static func buildEither(first part: [ViewNode]) -> [ViewNode] {
        part
    }

    /// The nodes of the second branch of an `if`/`else` or `switch`.
    public static func buildEither(second part: [ViewNode]) -> [ViewNode] {
        part
    }

    /// The nodes of a `for` loop.
    public static func buildArray(_ parts: [[ViewNode]]) -> [ViewNode] {
        parts.flatMap { $0 }
    }

    /// The nodes of an `if #available` branch.
    public static func buildLimitedAvailability(_ part: [ViewNode]) -> [ViewNode] {
        part
    }
}
