import Foundation
import Logging
import PropsCatalog

/// Saved variants: one pretty, sorted-keys JSON file per component in the variants directory,
/// meant to be committed next to the code:
///
/// ```json
/// {"component": "auth-login", "title": "Auth/Login", "variants": {"Typo in password": {...props}}}
/// ```
///
/// File names are component ids (slugs), so nothing a user types can reach outside the directory.
/// Writes are atomic: a temporary file, fsync, rename. Used from the app's serial queue only.
struct VariantStore {
    /// A saved variant that cannot be loaded: kept in its file and listed with the reason.
    struct Unloadable: Sendable, Equatable {
        let component: String
        let name: String
        let file: String
        let error: String

        var json: JSONValue {
            ["component": .string(component), "name": .string(name), "file": .string(file), "error": .string(error)]
        }
    }

    let directory: URL
    let logger: Logger

    private func file(for componentID: String) -> URL {
        directory.appendingPathComponent("\(componentID).json")
    }

    /// The catalog with every saved variant that still decodes added to its component, and the
    /// ones that do not, each with its error.
    func load(into catalog: Catalog) -> (Catalog, [Unloadable]) {
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: directory.path) else { return (catalog, []) }
        var catalog = catalog
        var unloadable: [Unloadable] = []
        for name in names.sorted() where name.hasSuffix(".json") {
            let url = directory.appendingPathComponent(name)
            let componentID = String(name.dropLast(".json".count))
            guard let document = read(url) else {
                unloadable.append(Unloadable(component: componentID, name: "*", file: url.path, error: "the file is not a saved-variants JSON object"))
                continue
            }
            guard var component = catalog.component(id: componentID) else {
                for variant in (document["variants"]?.objectValue ?? [:]).keys.sorted() {
                    unloadable.append(Unloadable(component: componentID, name: variant, file: url.path, error: "no component '\(componentID)' is registered"))
                }
                continue
            }
            for (variant, props) in (document["variants"]?.objectValue ?? [:]).sorted(by: { $0.key < $1.key }) {
                switch component.addingSavedVariant(named: variant, props: props) {
                case .success(let extended): component = extended
                case .failure(let error):
                    unloadable.append(Unloadable(component: componentID, name: variant, file: url.path, error: error.description))
                }
            }
            if let extended = try? catalog.replacing(component) { catalog = extended }
        }
        for item in unloadable {
            logger.warning("saved variant '\(item.name)' of '\(item.component)' cannot be loaded and is kept in \(item.file): \(item.error)")
        }
        return (catalog, unloadable)
    }

    /// Writes `props` as the variant `name` of `component` into its file, keeping every other
    /// variant of the file, loadable or not. A name already in the file is a conflict.
    func save(_ props: JSONValue, named name: String, of component: AnyComponent) throws(APIError) {
        let url = file(for: component.id)
        var document = read(url)?.objectValue ?? [:]
        var variants = document["variants"]?.objectValue ?? [:]
        if variants.keys.contains(where: { Slug.make($0) == Slug.make(name) }) {
            throw APIError(.conflict, "a saved variant named like '\(name)' already exists in \(url.path)", path: "/name")
        }
        variants[name] = props
        document["component"] = .string(component.id)
        document["title"] = .string(component.title)
        document["variants"] = .object(variants)
        do {
            try write(Array((JSONValue.object(document).serialized(pretty: true) + "\n").utf8), to: url)
        } catch {
            throw APIError(.storageFailed, "the variant could not be written to \(url.path): \(JournalError.describe(error))")
        }
    }

    private func read(_ url: URL) -> JSONValue? {
        guard let data = FileManager.default.contents(atPath: url.path),
              let json = try? JSONParser.parse([UInt8](data)), case .object = json else { return nil }
        return json
    }

    private func write(_ bytes: [UInt8], to url: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let temporary = directory.appendingPathComponent(".\(url.lastPathComponent).\(getpid()).tmp")
        _ = FileManager.default.createFile(atPath: temporary.path, contents: nil)
        let handle = try FileHandle(forWritingTo: temporary)
        do {
            try handle.write(contentsOf: Data(bytes))
            try handle.synchronize()
            try handle.close()
        } catch {
            try? handle.close()
            try? FileManager.default.removeItem(at: temporary)
            throw error
        }
        guard rename(temporary.path, url.path) == 0 else {
            try? FileManager.default.removeItem(at: temporary)
            throw POSIXError(POSIXErrorCode(rawValue: errno) ?? .EIO)
        }
    }
}
