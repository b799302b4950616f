import PropsCatalog

extension StorybookCLI {
    /// The catalog given to `main`, with `count` generated stories added (`--synthetic N`).
    static func catalog(synthetic count: Int) throws -> Catalog {
        let catalog = try catalog
        return count > 0 ? try catalog.adding(SyntheticCatalog.components(count: count)) : catalog
    }
}
