import Foundation

/// Where the browser UI's files are, for `serve` and `export --site`: the `--public DIR` given,
/// else `./Public`, else `Public/` next to the executable, else the package's `Public/` (the
/// executable being `.build/<configuration>/storybook`). A candidate counts when it holds an
/// `index.html`; nil when none does.
enum PublicDirectory {
    static func resolve(
        _ explicit: String?,
        executable: String = CommandLine.arguments[0],
        currentDirectory: String = FileManager.default.currentDirectoryPath
    ) -> URL? {
        if let explicit { return URL(fileURLWithPath: explicit) }
        let executable = URL(fileURLWithPath: executable).resolvingSymlinksInPath()
        let candidates = [
            URL(fileURLWithPath: currentDirectory).appendingPathComponent("Public"),
            executable.deletingLastPathComponent().appendingPathComponent("Public"),
            executable.deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent().appendingPathComponent("Public"),
        ]
        return candidates.first { FileManager.default.fileExists(atPath: $0.appendingPathComponent("index.html").path) }
    }
}
