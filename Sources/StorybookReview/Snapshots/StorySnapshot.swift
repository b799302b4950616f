package import PropsCatalog

/// One story's files in an export or a snapshot directory: `<id>.txt` (the text projection),
/// `<id>.a11y.txt` (the accessibility outline), `<id>.json` (the registered props, pretty, sorted
/// keys) and `<id>.html` (the standalone document), byte-identical to what
/// `/render/{id}.txt|.a11y.txt|.html` serves; plus, for every environment of the catalog's matrix
/// in which the story renders differently from the default, `<id>@<environment>.txt|.a11y.txt|.html`.
package struct StorySnapshot: Sendable {
    /// The kinds of file of a story, in the order diffs show them.
    package enum Kind: String, Sendable, CaseIterable {
        case txt, a11y, json, html

        /// The file name ending: `.txt`, `.a11y.txt`, `.json`, `.html`.
        package var suffix: String { self == .a11y ? ".a11y.txt" : ".\(rawValue)" }
    }

    /// One file of the story: its name in the directory, its bytes and their content hash.
    package struct File: Sendable {
        package let kind: Kind
        package let name: String
        package let bytes: [UInt8]
        /// `ContentHash.hex` of the bytes: the ETag of `/render/{id}.txt|.a11y.txt|.html` without quotes.
        package let hash: String
        /// The environment's key, empty for the default environment.
        package var environment = ""
    }

    /// One audit finding and the environment it was found in (empty: the default one).
    package struct Finding: Sendable, Equatable {
        package let environment: String
        package let finding: AuditFinding
    }

    package let id: String
    /// The component's id, for grouping (JUnit `classname`).
    package let componentID: String
    /// "Title / Variant", as the document's title shows it.
    package let title: String
    /// The files: the default environment's in ``Kind`` order, then each differing environment's.
    package let files: [File]
    /// The audit's findings at the component's level, in the default environment and in each differing one.
    package let findings: [Finding]

    /// Renders `story` exactly as the render cache does, in the default environment and in each of
    /// `environments` (those that render the same view as the default add nothing).
    package init(_ story: Catalog.Story, environments: [ViewEnvironment] = []) throws(SnapshotError) {
        let rendered: RenderedStory
        do {
            rendered = try RenderedStory(story)
        } catch {
            throw .unrenderable(story.id, "\(error)")
        }
        let text = Array(rendered.text.utf8)
        let outline = Array(rendered.accessibility.utf8)
        let document = Array(rendered.document.utf8)
        let props = Array((story.props.serialized(pretty: true) + "\n").utf8)
        id = story.id
        componentID = story.component.id
        title = "\(story.component.title) / \(story.name)"
        var files = [
            File(kind: .txt, name: "\(story.id).txt", bytes: text, hash: ContentHash.hex(text)),
            File(kind: .a11y, name: "\(story.id).a11y.txt", bytes: outline, hash: ContentHash.hex(outline)),
            File(kind: .json, name: "\(story.id).json", bytes: props, hash: ContentHash.hex(props)),
            File(kind: .html, name: "\(story.id).html", bytes: document, hash: ContentHash.hex(document)),
        ]
        var findings = rendered.findings.map { Finding(environment: "", finding: $0) }
        var seen: Set<ViewEnvironment> = [.standard]
        for environment in environments where seen.insert(environment).inserted {
            // Only the view is rendered to compare; the projections only where it differs.
            let view: [ViewNode]
            switch story.registeredView(in: environment) {
            case .success(let value): view = value
            case .failure(let error): throw .unrenderable(story.id, "in \(environment.key): \(error)")
            }
            guard view != rendered.view else { continue }
            let variant = RenderedStory(view: view, title: rendered.title, auditLevel: story.component.auditLevel, environment: environment)
            let key = environment.key
            for kind in [Kind.txt, .a11y, .html] {
                let bytes = Array(variant.body(kind.format).utf8)
                files.append(File(kind: kind, name: "\(story.id)@\(key)\(kind.suffix)", bytes: bytes, hash: ContentHash.hex(bytes), environment: key))
            }
            findings += variant.findings.filter { !rendered.findings.contains($0) }.map { Finding(environment: key, finding: $0) }
        }
        self.files = files
        self.findings = findings
    }

    /// `{"txt": hash, "a11y": hash, "json": hash, "html": hash}` of the default environment's files, as
    /// the export's index.json lists them, with `"environments": {"<key>": {...}}` when others differ.
    package var hashes: JSONValue {
        var members: [String: JSONValue] = [:]
        var environments: [String: [String: JSONValue]] = [:]
        for file in files {
            if file.environment.isEmpty {
                members[file.kind.rawValue] = .string(file.hash)
            } else {
                environments[file.environment, default: [:]][file.kind.rawValue] = .string(file.hash)
            }
        }
        if !environments.isEmpty { members["environments"] = .object(environments.mapValues(JSONValue.object)) }
        return .object(members)
    }

    /// The story id and environment key a file name belongs to, when it could be a story's file:
    /// `<id>[@<environment>].txt|.a11y.txt|.json|.html` with a story-shaped id (lowercase letters,
    /// digits and dashes, with the `--` between component and variant).
    package static func owner(ofFileNamed name: String) -> (id: String, environment: String)? {
        guard let kind = Kind.allCases.sorted(by: { $0.suffix.count > $1.suffix.count }).first(where: { name.hasSuffix($0.suffix) }) else { return nil }
        let stem = name.dropLast(kind.suffix.count)
        let parts = stem.split(separator: "@", maxSplits: 1, omittingEmptySubsequences: false)
        let id = Array(parts[0].utf8)
        let environment = parts.count > 1 ? String(parts[1]) : ""
        guard parts.count == 1 || (!environment.isEmpty && kind != .json) else { return nil }
        let hasSeparator = id.indices.dropLast().contains { id[$0] == 0x2D && id[$0 + 1] == 0x2D }
        guard hasSeparator, id.allSatisfy({ ($0 >= 0x61 && $0 <= 0x7A) || ($0 >= 0x30 && $0 <= 0x39) || $0 == 0x2D }),
              environment.utf8.allSatisfy({ $0 > 0x20 && $0 != 0x2F && $0 != 0x5C }) else {
            return nil
        }
        return (String(decoding: id, as: UTF8.self), environment)
    }

    /// The story id of a story's file name (see ``owner(ofFileNamed:)``).
    package static func storyID(ofFileNamed name: String) -> String? {
        owner(ofFileNamed: name)?.id
    }
}

extension StorySnapshot.Kind {
    /// The projection the file holds (the props file has none: `.text` stands in).
    package var format: ProjectionFormat {
        switch self {
        case .txt, .json: .text
        case .a11y: .a11y
        case .html: .html
        }
    }
}
