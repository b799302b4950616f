package import ArgumentParser
import Foundation
package import PropsCatalog

/// Runs a root command over a catalog: the part `StorybookCLI.main` and `StorybookReviewCLI.main`
/// share. User errors print one line on standard error (prefixed with the executable's name) and
/// exit non-zero; never a stack trace.
package enum CommandRunner {
    package static func main<Root: ParsableCommand>(
        _ root: Root.Type, catalog makeCatalog: () throws -> Catalog, arguments: [String]?
    ) -> Never {
        let name = CommandContext.executableName
        do {
            CommandContext.register(try makeCatalog())
        } catch {
            FileHandle.standardError.write(Data("\(name): the catalog cannot be served: \(error)\n".utf8))
            exit(1)
        }
        do {
            var command = try Root.parseAsRoot(arguments ?? Array(CommandLine.arguments.dropFirst()))
            try command.run()
            exit(0)
        } catch {
            let code = Root.exitCode(for: error)
            if code == .success {
                print(Root.fullMessage(for: error))
                exit(0)
            }
            let message = Root.message(for: error).split(separator: "\n").first.map(String.init) ?? "\(error)"
            FileHandle.standardError.write(Data("\(name): \(message)\n".utf8))
            exit(code.rawValue == 0 ? 1 : code.rawValue)
        }
    }
}
