package import Foundation
package import PropsCatalog

/// Saved variants, as `serve` writes them from the browser's "Save as variant": one pretty,
/// sorted-keys JSON file per component in a directory (`Variants/` by default), meant to be
/// committed next to the code, so that `check`, `export`, `list` and `render` see them too:
///
/// ```json
/// {"component": "auth-login", "title": "Auth/Login", "variants": {"Typo in password": {...props}}}
/// ```
package enum SavedVariants {
    /// A saved variant that cannot be loaded: kept in its file and listed with the reason.
    package struct Unloadable: Sendable, Equatable {
        package let component: String
        package let name: String
        package let file: String
        package let error: String

        package var json: JSONValue {
            ["component": .string(component), "name": .string(name), "file": .string(file), "error": .string(error)]
        }

        /// One line for a log or standard error.
        package var warning: String {
            "saved variant '\(name)' of '\(component)' cannot be loaded and is kept in \(file): \(error)"
        }
    }

    /// `catalog` with every saved variant in `directory` that still decodes added to its component,
    /// and the ones that do not, each with its error. A missing directory holds none.
    package static func load(from directory: URL, into catalog: Catalog) -> (Catalog, [Unloadable]) {
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
        return (catalog, unloadable)
    }

    /// The JSON object in the file at `url`; nil when there is none.
    package static func read(_ url: URL) -> JSONValue? {
        guard let data = FileManager.default.contents(atPath: url.path),
              let json = try? JSONParser.parse([UInt8](data)), case .object = json else { return nil }
        return json
    }
}
