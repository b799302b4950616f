import Foundation

/// A fresh path in the system's temporary directory, named `prefix` and a UUID, removed with all it
/// holds when the last reference goes: held by a suite, that is when its test ends, passed or failed.
/// Nothing is created at the path: the test makes the directory when it wants one.
final class TemporaryDirectory: Sendable {
    let url: URL

    var path: String { url.path }

    init(prefix: String) {
        url = FileManager.default.temporaryDirectory.appendingPathComponent(prefix + UUID().uuidString)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }
}
