import Foundation
import Testing

/// Text goldens beside the tests: compared always, written only when `STORYBOOK_RECORD=1`
/// asks and never on CI. A test that records fails, so a recording is never mistaken for a pass.
enum GoldenFiles {
    /// The demo catalog's goldens: the `Snapshots/` directory `storybook check` also reviews.
    static let directory = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().appendingPathComponent("Snapshots")

    static var isRecording: Bool {
        let environment = ProcessInfo.processInfo.environment
        return environment["STORYBOOK_RECORD"] == "1" && environment["CI"] == nil
    }

    static func check(_ actual: String, named name: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let url = directory.appendingPathComponent(name)
        let expected = try? String(contentsOf: url, encoding: .utf8)
        if isRecording {
            if expected != actual {
                try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
                try? Data(actual.utf8).write(to: url)
                Issue.record("recorded \(name); run again without STORYBOOK_RECORD", sourceLocation: sourceLocation)
            }
            return
        }
        guard let expected else {
            Issue.record("no golden \(name): run with STORYBOOK_RECORD=1 to record it", sourceLocation: sourceLocation)
            return
        }
        #expect(actual == expected, "projection \(name) differs from its golden", sourceLocation: sourceLocation)
    }
}
