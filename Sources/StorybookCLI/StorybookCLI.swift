import ArgumentParser
public import PropsCatalog
import StorybookReview

/// The command line of a storybook: `serve` (the default), `list`, `render`, `export` and `check`
/// over one catalog. The `storybook` executable runs it on the demo catalog; a user's own
/// executable runs it on theirs, and its help and messages carry that executable's name.
///
/// ```swift
/// import StorybookCLI
/// StorybookCLI.main(catalog: try MyCatalog.make())
/// ```
public enum StorybookCLI {
    /// Parses the process arguments, runs the subcommand on `catalog` and exits.
    /// User errors print one line on standard error and exit non-zero; never a stack trace.
    public static func main(catalog makeCatalog: @autoclosure () throws -> Catalog, arguments: [String]? = nil) -> Never {
        CommandRunner.main(StorybookCommand.self, catalog: makeCatalog, arguments: arguments)
    }
}

/// The root command, named after the running executable.
struct StorybookCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: CommandContext.executableName,
            abstract: "A storybook server for Codable Props: browse, edit and review component states.",
            subcommands: [ServeCommand.self] + ReviewSubcommands.all,
            defaultSubcommand: ServeCommand.self
        )
    }
}
