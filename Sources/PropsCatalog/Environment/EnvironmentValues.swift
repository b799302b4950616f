/// Light or dark appearance.
public enum ColorScheme: String, Sendable, Hashable, CaseIterable {
    case light, dark
}

/// Reading direction.
public enum LayoutDirection: String, Sendable, Hashable, CaseIterable {
    case ltr, rtl
}

/// Apple's twelve Dynamic Type sizes, smallest first; `large` is the default.
public enum DynamicTypeSize: String, Sendable, Hashable, CaseIterable, Comparable {
    case xSmall, small, medium, large, xLarge, xxLarge, xxxLarge
    case accessibility1, accessibility2, accessibility3, accessibility4, accessibility5

    /// Whether this is one of the five accessibility sizes, where layouts usually stack vertically.
    public var isAccessibilitySize: Bool { self >= .accessibility1 }

    /// The body text size in points at this size (Apple's Human Interface Guidelines table).
    public var bodyPointSize: Int {
        switch self {
        case .xSmall: 14
        case .small: 15
        case .medium: 16
        case .large: 17
        case .xLarge: 19
        case .xxLarge: 21
        case .xxxLarge: 23
        case .accessibility1: 28
        case .accessibility2: 33
        case .accessibility3: 40
        case .accessibility4: 47
        case .accessibility5: 53
        }
    }

    /// Sizes in order from `xSmall` to `accessibility5`.
    public static func < (lhs: Self, rhs: Self) -> Bool {
        allCases.firstIndex(of: lhs)! < allCases.firstIndex(of: rhs)!
    }
}
