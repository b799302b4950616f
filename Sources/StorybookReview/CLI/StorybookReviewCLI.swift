package import ArgumentParser
public import PropsCatalog

/// The review half of the command line, for a CI job that only checks goldens and should not need
/// libwebsockets: `list`, `render`, `export` and `check`, exactly as `StorybookCLI.main` runs them.
///
/// ```swift
/// import StorybookReview
/// StorybookReviewCLI.main(catalog: try MyCatalog.make())
/// ```
public enum StorybookReviewCLI {
    /// Parses the process arguments, runs the subcommand on `catalog` and exits.
    public static func main(catalog makeCatalog: @autoclosure () throws -> Catalog, arguments: [String]? = nil) -> Never {
        CommandRunner.main(ReviewCommand.self, catalog: makeCatalog, arguments: arguments)
    }
}

/// The root command of ``StorybookReviewCLI``, named after the running executable.
struct ReviewCommand: ParsableCommand {
    static var configuration: CommandConfiguration {
        CommandConfiguration(
            commandName: CommandContext.executableName,
            abstract: "Review a storybook catalog: list, render, export and check its stories against goldens.",
            subcommands: ReviewSubcommands.all
        )
    }
}

/// The subcommands that are pure file work, shared by every root command.
package enum ReviewSubcommands {
    package static let all: [any ParsableCommand.Type] = [ListCommand.self, RenderCommand.self, ExportCommand.self, CheckCommand.self]
}
