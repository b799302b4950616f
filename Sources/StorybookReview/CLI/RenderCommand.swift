import ArgumentParser
import PropsCatalog

/// `storybook render STORY-ID [--format text|html|a11y] [--color-scheme ...] [--dynamic-type ...]
/// [--locale ...] [--layout-direction ...] [--width N]`: one projection of a registered variant.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print the text, HTML or accessibility projection of a story's registered variant."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, html, a11y
    }

    @Argument(help: "The story id, e.g. profile-user-profile--default.")
    var storyID: String

    @OptionGroup var catalogOptions: CatalogOptions

    @Option(name: .long, help: "text (the review outline), html (a standalone document) or a11y (the accessibility outline).")
    var format: Format = .text

    @Option(help: "light or dark.")
    var colorScheme: String?

    @Option(help: "A Dynamic Type size: xSmall ... xxxLarge, accessibility1 ... accessibility5 (default large).")
    var dynamicType: String?

    @Option(help: "A BCP 47 locale (default en-US).")
    var locale: String?

    @Option(help: "ltr or rtl (default: the locale's).")
    var layoutDirection: String?

    @Option(help: "The width in points.")
    var width: String?

    /// The environment the options name.
    func environment() throws -> ViewEnvironment {
        let values: [String: String?] = ["colorScheme": colorScheme, "dynamicType": dynamicType, "locale": locale,
                                         "layoutDirection": layoutDirection, "width": width]
        do throws(EnvironmentError) {
            return try ViewEnvironment(parameters: values.compactMapValues { $0 })
        } catch {
            throw ValidationError(error.message)
        }
    }

    func run() throws {
        let catalog = try catalogOptions.catalog()
        guard let story = catalog.story(id: storyID) else {
            throw CLIError("unknown story '\(storyID)' (\(CommandContext.executableName) list shows every story)")
        }
        let rendered = try RenderedStory(story, environment: try environment())
        print(rendered.body(ProjectionFormat(rawValue: format.rawValue) ?? .text), terminator: "")
    }
}
