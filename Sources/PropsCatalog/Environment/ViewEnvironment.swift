/// The environment a view is rendered in: colour scheme, Dynamic Type size, locale, layout
/// direction and width. A render function reads it as `ViewEnvironment.current`:
///
/// ```swift
/// if ViewEnvironment.current.dynamicType.isAccessibilitySize { VStack { ... } } else { HStack { ... } }
/// Text(ViewEnvironment.current.format(rating, fractionDigits: 1))
/// ```
public struct ViewEnvironment: Sendable, Hashable {
    /// Light or dark.
    public var colorScheme: ColorScheme = .light
    /// The text size the user chose.
    public var dynamicType: DynamicTypeSize = .large
    /// A BCP 47 language tag, `en-US` by default.
    public var locale: String = "en-US"
    /// Set explicitly, or nil to follow the locale (right-to-left for Arabic, Hebrew, Persian, Urdu...).
    public var explicitLayoutDirection: LayoutDirection?
    /// The available width in points, when one is set.
    public var width: Int?

    /// The default environment: light, `large`, `en-US`, left-to-right, no width.
    public static let standard = ViewEnvironment()

    /// An environment; every parameter defaults to the standard one.
    public init(colorScheme: ColorScheme = .light, dynamicType: DynamicTypeSize = .large, locale: String = "en-US",
                layoutDirection: LayoutDirection? = nil, width: Int? = nil) {
        self.colorScheme = colorScheme
        self.dynamicType = dynamicType
        self.locale = locale
        self.explicitLayoutDirection = layoutDirection
        self.width = width
    }

    /// The layout direction: the explicit one, or the locale's.
    public var layoutDirection: LayoutDirection {
        explicitLayoutDirection ?? LocaleFormat(locale).layoutDirection
    }

    /// Whether this is the default environment.
    public var isStandard: Bool { self == .standard }

    /// The environment of the render in progress (`standard` outside one).
    @TaskLocal public static var current = ViewEnvironment.standard

    /// Renders `body` with this environment as `ViewEnvironment.current`.
    public func apply<Result>(_ body: () throws -> Result) rethrows -> Result {
        try Self.$current.withValue(self, operation: body)
    }
}
