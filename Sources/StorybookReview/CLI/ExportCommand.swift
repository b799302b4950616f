import ArgumentParser
import Foundation
import StorybookUI

/// `storybook export --out DIR [--site DIR] [--synthetic N] [--variants-dir DIR]`: every story's text outline,
/// standalone HTML document and props as files, with index.json and index.html
/// (`SnapshotExport`); and/or the browser UI as a read-only static site (`StaticSiteExport`).
struct ExportCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "export",
        abstract: "Write every story's files to a directory (--out), and/or the browser UI as a read-only static site (--site).",
        discussion: "Each tree is written beside its directory and renamed into place when complete. An existing --out DIR is replaced only when it is empty or a previous export (has index.json); an existing --site DIR only when it is empty or a previous site (has static/site.json)."
    )

    @Option(name: .long, help: "The directory to write every story's .txt, .html and .json files to (replaced when it holds a previous export).")
    var out: String?

    @Option(name: .long, help: "The directory to write the read-only static site to: the browser UI and the stories' data, for any static file host.")
    var site: String?

    @Option(name: .customLong("public"), help: "Copy the browser UI for --site from this directory instead of the UI built into the library (for working on the UI).")
    var publicDirectory: String?

    @OptionGroup var catalogOptions: CatalogOptions

    func validate() throws {
        guard out != nil || site != nil else { throw ValidationError("give --out DIR, --site DIR or both") }
        if let out, out.isEmpty { throw ValidationError("--out needs a directory") }
        if let site, site.isEmpty { throw ValidationError("--site needs a directory") }
        if let out, let site, URL(fileURLWithPath: out).standardizedFileURL == URL(fileURLWithPath: site).standardizedFileURL {
            throw ValidationError("--out and --site must be different directories")
        }
        if publicDirectory != nil && site == nil { throw ValidationError("--public is for --site") }
    }

    func run() throws {
        let catalog = try catalogOptions.catalog()
        if let out {
            do throws(SnapshotError) {
                let summary = try SnapshotExport(catalog: catalog).write(to: out)
                print("exported \(summary.stories) stories (\(summary.files) files) to \(out)")
                warnAboutLeftover(summary.leftover, what: "export")
            } catch {
                throw CLIError("export failed: \(error)")
            }
        }
        if let site {
            let ui: BrowserUI
            do {
                ui = try publicDirectory.map { try BrowserUI(directory: URL(fileURLWithPath: $0)) } ?? .embedded
            } catch {
                throw CLIError("export failed: \(error) (give the UI's directory with --public DIR, or leave it out to use the built-in UI)")
            }
            do throws(SnapshotError) {
                let summary = try StaticSiteExport(catalog: catalog, ui: ui, uiDirectory: publicDirectory).write(to: site)
                print("exported a static site of \(summary.stories) stories (\(summary.files) files) to \(site)")
                warnAboutLeftover(summary.leftover, what: "site")
            } catch {
                throw CLIError("export failed: \(error)")
            }
        }
    }

    private func warnAboutLeftover(_ leftover: String?, what: String) {
        guard let leftover else { return }
        FileHandle.standardError.write(Data("\(CommandContext.executableName): warning: the previous \(what) was moved to \(leftover) and could not be removed\n".utf8))
    }
}
