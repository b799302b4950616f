import ArgumentParser
import Foundation
import PropsCatalog

/// What the review commands (`check`, `export`, `list`, `render`) add to the catalog given to
/// `main`: generated stories (`--synthetic N`) and the saved variants committed with the code
/// (`--variants-dir`, `Variants/` by default, as `serve` saves them).
struct CatalogOptions: ParsableArguments {
    @Option(help: "Add a generated catalog of N stories, as `serve --synthetic` does.")
    var synthetic = 0

    @Option(help: "Saved variants to include, one JSON file per component, as `serve` saves them from the browser (none when the directory is missing).")
    var variantsDir = "Variants"

    func validate() throws {
        guard (0...1_000_000).contains(synthetic) else { throw ValidationError("--synthetic must be between 0 and 1000000") }
        guard !variantsDir.isEmpty else { throw ValidationError("--variants-dir needs a directory") }
    }

    /// The catalog with the generated stories and the saved variants; a saved variant that does not
    /// load (its component is gone, its props no longer decode) is said on standard error.
    func catalog() throws -> Catalog {
        try load().catalog
    }

    /// `catalog()`, and the saved variants that did not load (said on standard error when `warn`).
    func load(warn: Bool = true) throws -> (catalog: Catalog, unloadable: [SavedVariants.Unloadable]) {
        let registered = try CommandContext.catalog(synthetic: synthetic)
        let (catalog, unloadable) = SavedVariants.load(from: URL(fileURLWithPath: variantsDir), into: registered)
        for item in unloadable where warn {
            FileHandle.standardError.write(Data("\(CommandContext.executableName): \(item.warning)\n".utf8))
        }
        return (catalog, unloadable)
    }
}
