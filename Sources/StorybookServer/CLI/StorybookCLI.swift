import ArgumentParser
import Foundation
public import PropsCatalog
import Synchronization

/// The library entry point of the `storybook` command: a user's own executable serves and
/// renders their own catalog with the same subcommands and options.
///
/// ```swift
/// import StorybookServer
/// StorybookCLI.main(catalog: try MyCatalog.make())
/// ```
public enum StorybookCLI {
    static let catalogSlot = Mutex<Catalog?>(nil)

    /// Parses the process arguments, runs the subcommand on `catalog` and exits.
    /// User errors print one line on standard error and exit non-zero; never a stack trace.
    public static func main(catalog makeCatalog: @autoclosure () throws -> Catalog, arguments: [String]? = nil) -> Never {
        do {
            let catalog = try makeCatalog()
            catalogSlot.withLock { $0 = catalog }
        } catch {
            FileHandle.standardError.write(Data("storybook: the catalog cannot be served: \(error)\n".utf8))
            exit(1)
        }
        do {
            var command = try StorybookCommand.parseAsRoot(arguments ?? Array(CommandLine.arguments.dropFirst()))
            try command.run()
            exit(0)
        } catch {
            let code = StorybookCommand.exitCode(for: error)
            if code == .success {
                print(StorybookCommand.fullMessage(for: error))
                exit(0)
            }
            let message = StorybookCommand.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            FileHandle.standardError.write(Data("storybook: \(message)\n".utf8))
            exit(code.rawValue == 0 ? 1 : code.rawValue)
        }
    }

    /// The catalog given to `main`.
    static var catalog: Catalog {
        get throws {
            guard let catalog = catalogSlot.withLock({ $0 }) else { throw CLIError("no catalog was registered") }
            return catalog
        }
    }
}

/// A user error of the command line: printed as one line, exit code 1.
struct CLIError: Error, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

struct StorybookCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "storybook",
        abstract: "A storybook server for Codable Props: browse, edit and review component states.",
        subcommands: [ServeCommand.self, ListCommand.self, RenderCommand.self, ExportCommand.self, CheckCommand.self, MCPCommand.self],
        defaultSubcommand: ServeCommand.self
    )
}
