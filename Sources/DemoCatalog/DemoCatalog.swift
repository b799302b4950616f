public import PropsCatalog

/// The demo catalog: components from the design talks, so a new user sees real states at once.
public enum DemoCatalog {
    /// The environments `storybook export` and `check` render every story in besides the default:
    /// dark, the third accessibility text size, German and right-to-left.
    public static let environments = [
        ViewEnvironment(colorScheme: .dark),
        ViewEnvironment(dynamicType: .accessibility3),
        ViewEnvironment(locale: "de-DE"),
        ViewEnvironment(layoutDirection: .rtl),
    ]

    /// Builds the catalog; the demo's ids are unique, so this only fails if a component is broken.
    public static func make() throws(CatalogError) -> Catalog {
        try Catalog {
            Login.component
            LocationPicker.component
            Clocks.component
            Profile.component
            Movies.app
            Movies.list
            Movies.detail
            Cart.component
            Cart.line
            AccountForm.component
        }
        .testing(in: environments)
    }
}
