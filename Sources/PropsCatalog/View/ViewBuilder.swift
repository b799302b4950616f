/// Anything that stands for zero or more view nodes inside a `@ViewBuilder` block.
public protocol ViewConvertible {
    var viewNodes: [ViewNode] { get }
}

extension ViewNode: ViewConvertible {
    public var viewNodes: [ViewNode] { [self] }
}

/// Builds lists of view nodes with `if`, `switch` and `for` inside, as SwiftUI does.
@resultBuilder
public enum ViewBuilder {
    public static func buildExpression(_ element: some ViewConvertible) -> [ViewNode] {
        element.viewNodes
    }

    public static func buildExpression(_ nodes: [ViewNode]) -> [ViewNode] {
        nodes
    }

    public static func buildBlock(_ parts: [ViewNode]...) -> [ViewNode] {
        parts.flatMap { $0 }
    }

    public static func buildOptional(_ part: [ViewNode]?) -> [ViewNode] {
        part ?? []
    }

    public static func buildEither(first part: [ViewNode]) -> [ViewNode] {
        part
    }

    public static func buildEither(second part: [ViewNode]) -> [ViewNode] {
        part
    }

    public static func buildArray(_ parts: [[ViewNode]]) -> [ViewNode] {
        parts.flatMap { $0 }
    }

    public static func buildLimitedAvailability(_ part: [ViewNode]) -> [ViewNode] {
        part
    }
}
