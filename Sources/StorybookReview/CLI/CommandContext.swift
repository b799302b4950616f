import Foundation
package import PropsCatalog
import Synchronization

/// What every subcommand of a catalog's executable shares: the catalog given to `main` and the
/// name the executable was started as (help, usage and error lines name it, not `storybook`).
package enum CommandContext {
    private static let catalogSlot = Mutex<Catalog?>(nil)

    /// Makes `catalog` the one the subcommands work on.
    package static func register(_ catalog: Catalog) {
        catalogSlot.withLock { $0 = catalog }
    }

    /// The catalog given to `main`.
    package static var catalog: Catalog {
        get throws {
            guard let catalog = catalogSlot.withLock({ $0 }) else { throw CLIError("no catalog was registered") }
            return catalog
        }
    }

    /// The catalog given to `main`, with `count` generated stories added (`--synthetic N`).
    package static func catalog(synthetic count: Int) throws -> Catalog {
        let catalog = try catalog
        return count > 0 ? try catalog.adding(SyntheticCatalog.components(count: count)) : catalog
    }

    /// The last path component of the running executable (`storybook`, `my-storybook`).
    package static var executableName: String {
        let name = URL(fileURLWithPath: CommandLine.arguments.first ?? "storybook").lastPathComponent
        return name.isEmpty ? "storybook" : name
    }
}

/// A user error of the command line: printed as one line, exit code 1.
package struct CLIError: Error, CustomStringConvertible {
    package let description: String
    package init(_ description: String) { self.description = description }
}
