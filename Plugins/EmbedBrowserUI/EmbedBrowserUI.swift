import Foundation
import PackagePlugin

/// Embeds the browser UI (`Public/` at the package root) into the target that uses this plugin:
/// one generated Swift file holds every file's bytes, so the UI ships inside the library and is
/// served from memory whatever the working directory, wherever the executable is copied.
/// `Public/` stays plain files with no build step; an edit there is picked up by the next build.
@main
struct EmbedBrowserUI: BuildToolPlugin {
    func createBuildCommands(context: PluginContext, target: any Target) throws -> [Command] {
        let publicDirectory = context.package.directoryURL.appending(path: "Public")
        let output = context.pluginWorkDirectoryURL.appending(path: "EmbeddedBrowserUI.swift")
        return [
            .buildCommand(
                // No "/" here: SwiftPM's build output shortens what looks like a path to its last
                // component ("Embedding the browser UI of Public/ into" printed "Embedding  into").
                displayName: "Embedding the browser UI of the Public folder into \(target.name)",
                executable: try context.tool(named: "embed-browser-ui").url,
                arguments: [publicDirectory.path, output.path],
                inputFiles: Self.files(under: publicDirectory),
                outputFiles: [output]
            )
        ]
    }

    /// Every file below `directory` (hidden names left out), so that a change to any of them,
    /// an added file or a removed one rebuilds the embedded UI.
    static func files(under directory: URL) -> [URL] {
        guard let enumerator = FileManager.default.enumerator(
            at: directory, includingPropertiesForKeys: [.isRegularFileKey], options: [.skipsHiddenFiles])
        else { return [] }
        var files = [directory]
        for case let url as URL in enumerator where (try? url.resourceValues(forKeys: [.isRegularFileKey]))?.isRegularFile == true {
            files.append(url)
        }
        return files
    }
}
