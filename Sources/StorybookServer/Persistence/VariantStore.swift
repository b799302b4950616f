import Foundation
import Logging
import PropsCatalog
import StorybookReview

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
    typealias Unloadable = SavedVariants.Unloadable

    let directory: URL
    let logger: Logger

    private func file(for componentID: String) -> URL {
        directory.appendingPathComponent("\(componentID).json")
    }

    /// The catalog with every saved variant that still decodes added to its component, and the
    /// ones that do not, each with its error (also logged).
    func load(into catalog: Catalog) -> (Catalog, [Unloadable]) {
        let (loaded, unloadable) = SavedVariants.load(from: directory, into: catalog)
        for item in unloadable { logger.warning("\(item.warning)") }
        return (loaded, unloadable)
    }

    /// Writes `props` as the variant `name` of `component` into its file, keeping every other
    /// variant of the file, loadable or not. A name already in the file is a conflict.
    func save(_ props: JSONValue, named name: String, of component: AnyComponent) throws(APIError) {
        let url = file(for: component.id)
        var document = SavedVariants.read(url)?.objectValue ?? [:]
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
