import ArgumentParser
import PropsCatalog

/// `storybook render STORY-ID [--format text|html]`: one projection of a registered variant.
struct RenderCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "render",
        abstract: "Print the text or HTML projection of a story's registered variant."
    )

    enum Format: String, ExpressibleByArgument, CaseIterable {
        case text, html
    }

    @Argument(help: "The story id, e.g. profile-user-profile--default.")
    var storyID: String

    @Option(name: .long, help: "text (the review outline) or html (a standalone document).")
    var format: Format = .text

    func run() throws {
        let catalog = try CommandContext.catalog
        guard let story = catalog.story(id: storyID) else {
            throw CLIError("unknown story '\(storyID)' (storybook list shows every story)")
        }
        let rendered = try RenderedStory(story)
        print(format == .text ? rendered.text : rendered.document, terminator: "")
    }
}
