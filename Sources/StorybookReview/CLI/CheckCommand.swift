import ArgumentParser
import Foundation
import PropsCatalog

/// `storybook check --snapshots DIR [--record] [--prune] [--junit FILE]`: compares every story
/// with its committed goldens (`SnapshotCheck`), prints a unified diff per changed story and a
/// summary line. Exit status: 0 when nothing changed (or every change was recorded or pruned),
/// 1 when something changed, a story has an error-level accessibility finding (also with
/// `--record`) or a saved variant (`--variants-dir`) cannot be loaded, 2 when the check could not run.
struct CheckCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "check",
        abstract: "Compare every story's .txt, .html and .json with the goldens in a directory.",
        discussion: "Exit status 0: nothing changed. 1: a story changed, is new or was removed (diffs on standard output), has an error-level accessibility finding, or a saved variant cannot be loaded. 2: the check could not run."
    )

    @Option(name: .long, help: "The directory of goldens, laid out as `\(CommandContext.executableName) export` writes it.")
    var snapshots: String

    @Flag(help: "Write the goldens of new and changed stories; exit 0 unless a story has an error-level accessibility finding (still 1).")
    var record = false

    @Flag(help: "Delete the goldens of stories that no longer exist.")
    var prune = false

    @Option(help: "Also write a JUnit XML report to FILE.")
    var junit: String?

    @OptionGroup var catalogOptions: CatalogOptions

    func validate() throws {
        guard !snapshots.isEmpty else { throw ValidationError("--snapshots needs a directory") }
    }

    func run() throws {
        let catalog: Catalog
        let unloadable: [SavedVariants.Unloadable]
        do {
            (catalog, unloadable) = try catalogOptions.load(warn: false)
        } catch {
            Self.fail(error)
        }
        for component in catalog.components {
            for story in component.leftOut {
                FileHandle.standardError.write(Data("\(CommandContext.executableName): \(component.id): generated story '\(story.name)' left out: \(story.path.map { "\($0): " } ?? "")\(story.message)\n".utf8))
            }
        }
        let report: SnapshotReport
        do throws(SnapshotError) {
            report = try SnapshotCheck(catalog: catalog, options: .init(record: record, prune: prune)).run(directory: snapshots)
            if let junit {
                try FileSystem.makeDirectories(URL(fileURLWithPath: junit).deletingLastPathComponent().path)
                try FileSystem.writeAtomically(Array(JUnitReport.xml(report).utf8), to: junit)
            }
        } catch {
            Self.fail(error)
        }
        print(report.text, terminator: "")
        if !unloadable.isEmpty {
            // A committed variant the Props type no longer decodes is a change to look at, as a changed story is.
            for item in unloadable { print(item.warning) }
            let count = unloadable.count == 1 ? "1 saved variant" : "\(unloadable.count) saved variants"
            print("\(count) in \(catalogOptions.variantsDir) cannot be loaded: fix or remove \(unloadable.count == 1 ? "it" : "them")")
            Foundation.exit(1)
        }
        if !report.passed { Foundation.exit(1) }
    }

    /// One line on standard error and exit status 2, not 1: CI tells "the check could not run"
    /// from "a story changed". (Typed and untyped errors are caught apart: one `do` for both
    /// crashes the Swift 6.3.1 optimizer, "swifterror value can only be loaded and stored from".)
    private static func fail(_ error: any Error) -> Never {
        FileHandle.standardError.write(Data("\(CommandContext.executableName): check failed: \(error)\n".utf8))
        Foundation.exit(2)
    }
}
