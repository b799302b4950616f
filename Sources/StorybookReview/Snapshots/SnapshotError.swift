/// Why an export or a snapshot check could not run: one line for people, naming the path at fault.
package struct SnapshotError: Error, Sendable, Equatable, CustomStringConvertible {
    package let description: String

    /// A system call that failed on `path`, with the system's reason (`strerror`).
    package static func io(_ action: String, _ path: String, errno code: Int32) -> SnapshotError {
        SnapshotError(description: "cannot \(action) \(path): \(FileSystem.reason(code))")
    }

    package static func missingDirectory(_ path: String) -> SnapshotError {
        SnapshotError(description: "snapshot directory \(path) does not exist (run with --record to create it)")
    }

    package static func notADirectory(_ path: String) -> SnapshotError {
        SnapshotError(description: "\(path) exists and is not a directory")
    }

    package static func rootDirectory() -> SnapshotError {
        SnapshotError(description: "cannot export to the root directory: give a directory of its own")
    }

    package static func symbolicLink(_ path: String) -> SnapshotError {
        SnapshotError(description: "\(path) is a symbolic link: give the directory it points to")
    }

    package static func notAnExport(_ path: String) -> SnapshotError {
        SnapshotError(description: "refusing to replace \(path): it is not empty and has no index.json, so it is not an export (nothing was changed; remove it or choose another --out)")
    }

    package static func unrenderable(_ storyID: String, _ reason: String) -> SnapshotError {
        SnapshotError(description: "story \(storyID) cannot be rendered: \(reason)")
    }
}
