import PropsCatalog
import StorybookReview
import StorybookTransport

/// The review page's API, when the server runs with `--snapshots DIR`: which stories differ from
/// their goldens, with both text projections and the diff, and (with `--allow-record`) accepting
/// a story's change by writing its goldens.
struct ReviewRoute {
    let catalog: Catalog
    let directory: String?
    let allowRecord: Bool

    func respond(to request: HTTPRequest, path: [String]) -> HTTPResponse {
        switch (request.method, path.count) {
        case (.get, 0), (.head, 0): break
        case (.post, 2) where path[1] == "accept": break
        case (_, 0):
            return .error(APIError(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.path)"), headers: [("Allow", "GET, HEAD")])
        case (_, 2) where path[1] == "accept":
            return .error(APIError(.methodNotAllowed, "\(request.method.rawValue) is not allowed on \(request.path)"), headers: [("Allow", "POST")])
        default: break
        }
        guard let directory else {
            return .error(APIError(.notFound, "review is off: start the server with --snapshots DIR"))
        }
        switch (request.method, path.count) {
        case (.get, 0), (.head, 0):
            return list(directory)
        case (.post, 2) where path[1] == "accept":
            return accept(path[0], in: directory)
        default:
            return .error(APIError(.notFound, "no route \(request.method.rawValue) \(request.path)"))
        }
    }

    /// `{"snapshots", "allowRecord", "summary", "counts", "stories": [{"id", "title", "status", "files", "diff", "golden", "current"}]}`
    /// for the stories that are not unchanged.
    private func list(_ directory: String) -> HTTPResponse {
        switch report(directory) {
        case .success(let json): .json(json)
        case .failure(let error): .error(error)
        }
    }

    /// The body of `GET /api/review` (also what the MCP tool `compare_goldens` answers).
    func report(_ directory: String) -> Result<JSONValue, APIError> {
        let report: SnapshotReport
        do {
            report = try SnapshotCheck(catalog: catalog).run(directory: directory)
        } catch {
            return .failure(APIError(.notFound, error.description))
        }
        let stories: [JSONValue] = report.stories.filter { $0.status != .unchanged }.map { comparison in
            let golden = try? FileSystem.read(directory + "/\(comparison.id).txt")
            let current = catalog.story(id: comparison.id).flatMap { try? StorySnapshot($0) }?.files.first { $0.kind == .txt }?.bytes
            return .object([
                "id": .string(comparison.id), "title": comparison.title.map(JSONValue.string) ?? .null,
                "status": .string(comparison.status.rawValue), "files": .array(comparison.files.map(JSONValue.string)),
                "diff": .string(comparison.diff),
                "golden": golden.flatMap { $0 }.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null,
                "current": current.map { .string(String(decoding: $0, as: UTF8.self)) } ?? .null,
            ])
        }
        return .success([
            "snapshots": .string(directory), "allowRecord": .bool(allowRecord), "summary": .string(report.summary),
            "counts": [
                "unchanged": .integer(Int64(report.count(.unchanged))), "changed": .integer(Int64(report.count(.changed))),
                "new": .integer(Int64(report.count(.new))), "removed": .integer(Int64(report.count(.removed))),
            ],
            "stories": .array(stories),
        ])
    }

    /// Writes the goldens of one story (or deletes those of a removed one).
    private func accept(_ id: String, in directory: String) -> HTTPResponse {
        guard allowRecord else {
            return .error(APIError(.forbidden, "accepting changes is off: start the server with --allow-record"))
        }
        do {
            if let story = catalog.story(id: id) {
                for file in try StorySnapshot(story, environments: catalog.environments).files {
                    try FileSystem.writeAtomically(file.bytes, to: directory + "/" + file.name)
                }
                return .json(["id": .string(id), "accepted": true])
            }
            var removed = false
            for name in try FileSystem.entries(directory) {
                guard let owner = StorySnapshot.owner(ofFileNamed: name), owner.id == id || "\(owner.id)@\(owner.environment)" == id else { continue }
                try FileSystem.removeTree(directory + "/" + name)
                removed = true
            }
            guard removed else { return .error(APIError(.notFound, "no story or golden '\(id)'")) }
            return .json(["id": .string(id), "accepted": true, "removed": true])
        } catch {
            return .error(APIError(.storageFailed, error.description))
        }
    }
}
