import ArgumentParser
import PropsCatalog

/// `storybook list [--json]`: every story of the catalog.
struct ListCommand: ParsableCommand {
    static let configuration = CommandConfiguration(commandName: "list", abstract: "List every story of the catalog.")

    @Flag(name: .long, help: "Print the index as JSON, as /api/index.json answers it.")
    var json = false

    @OptionGroup var catalogOptions: CatalogOptions

    func run() throws {
        let catalog = try catalogOptions.catalog()
        if json {
            print(catalog.index.serialized(pretty: true))
            return
        }
        let width = catalog.stories.map(\.id.count).max() ?? 0
        for story in catalog.stories {
            let padding = String(repeating: " ", count: width - story.id.count)
            print("\(story.id)\(padding)  \(story.component.title) / \(story.name)")
        }
    }
}
