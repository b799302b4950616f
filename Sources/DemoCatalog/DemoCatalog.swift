public import PropsCatalog

/// The demo catalog: components from the design talks, so a new user sees real states at once.
public enum DemoCatalog {
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
        }
    }
}
