package import PropsCatalog

/// The two files that describe an export: `index.json` (the catalog index with each story's
/// file hashes) and `index.html` (a static page linking every story's files). Both depend on
/// nothing but the catalog, so equal catalogs give equal bytes.
package enum SnapshotIndex {
    package static let jsonName = "index.json"
    package static let htmlName = "index.html"

    /// `/api/index.json`'s document, pretty, with `"hashes": {"txt", "a11y", "json", "html"}` added to
    /// every story (and `"environments": {"<key>": {...}}` where another environment renders differently):
    /// `ContentHash.hex` of each file, the ETags of `/render/{id}.txt|.a11y.txt|.html` unquoted.
    package static func json(_ catalog: Catalog, _ snapshots: [StorySnapshot]) -> [UInt8] {
        let hashes = Dictionary(snapshots.map { ($0.id, $0.hashes) }, uniquingKeysWith: { first, _ in first })
        var index = catalog.index
        if case .object(var members) = index, case .array(let components) = members["components"] {
            members["components"] = .array(components.map { component in
                guard case .object(var fields) = component, case .array(let stories) = fields["stories"] else { return component }
                fields["stories"] = .array(stories.map { story in
                    guard case .object(var storyFields) = story, let id = story["id"]?.stringValue, let hash = hashes[id] else { return story }
                    storyFields["hashes"] = hash
                    return .object(storyFields)
                })
                return .object(fields)
            })
            index = .object(members)
        }
        return Array((index.serialized(pretty: true) + "\n").utf8)
    }

    /// A small static page: one section per component, one line per story linking its files.
    package static func html(_ catalog: Catalog) -> [UInt8] {
        var out = """
            <!doctype html>
            <html lang="en">
            <head>
            <meta charset="utf-8">
            <meta name="viewport" content="width=device-width, initial-scale=1">
            <title>Storybook export</title>
            <style>
            body { font-family: system-ui, sans-serif; line-height: 1.5; margin: 0 auto; padding: 16px; max-width: 960px; }
            h2 { font-size: 1.05em; margin: 1.2em 0 0.3em; } ul { margin: 0; padding-left: 1.2em; } code { font-size: 0.85em; opacity: 0.7; }
            </style>
            </head>
            <body>
            <h1>Storybook export</h1>
            <p>\(catalog.stories.count) stories in \(catalog.components.count) components. Each links its text outline, its accessibility outline, its standalone HTML document and its props.</p>

            """
        for component in catalog.components {
            out += "<section>\n<h2>\(HTMLProjection.escape(component.title))</h2>\n<ul>\n"
            for variant in component.variants {
                let id = HTMLProjection.escape(variant.id)
                out += "<li>\(HTMLProjection.escape(variant.name)) <code>\(id)</code>: "
                    + "<a href=\"\(id).txt\">text</a> · <a href=\"\(id).a11y.txt\">accessibility</a> · <a href=\"\(id).html\">html</a> · <a href=\"\(id).json\">props</a></li>\n"
            }
            out += "</ul>\n</section>\n"
        }
        out += "</body>\n</html>\n"
        return Array(out.utf8)
    }
}
