import ArgumentParser
import Foundation

/// `storybook export --out DIR [--synthetic N]`: every story's text outline, standalone HTML
/// document and props as files, with index.json and index.html (`SnapshotExport`).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every story's .txt, .html and .json files, index.json and index.html to a directory.",
        discussion: "The tree is written beside DIR and renamed into place when complete. An existing DIR is replaced only when it is empty or a previous export (has index.json)."
    )

    @Option(name: .long, help: "The directory to write (replaced when it holds a previous export).")
    var out: String

    @Option(help: "Add a generated catalog of N stories, as `serve --synthetic` does.")
    var synthetic = 0

    func validate() throws {
        guard (0...1_000_000).contains(synthetic) else { throw ValidationError("--synthetic must be between 0 and 1000000") }
        guard !out.isEmpty else { throw ValidationError("--out needs a directory") }
    }

    func run() throws {
        let catalog = try StorybookCLI.catalog(synthetic: synthetic)
        do throws(SnapshotError) {
            let summary = try SnapshotExport(catalog: catalog).write(to: out)
            print("exported \(summary.stories) stories (\(summary.files) files) to \(out)")
            if let leftover = summary.leftover {
                FileHandle.standardError.write(Data("storybook: warning: the previous export was moved to \(leftover) and could not be removed\n".utf8))
            }
        } catch {
            throw CLIError("export failed: \(error)")
        }
    }
}
