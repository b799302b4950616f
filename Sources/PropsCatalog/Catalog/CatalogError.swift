/// A catalog that cannot be served, found at start-up.
public struct CatalogError: Error, Sendable, Equatable, CustomStringConvertible {
    /// What is wrong with the catalog, naming the component and variant.
    public let description: String

    static func duplicateID(_ id: String, first: String, second: String) -> CatalogError {
        CatalogError(description: "duplicate id '\(id)': \(first) and \(second) both make it")
    }

    static func emptyTitle(_ title: String) -> CatalogError {
        CatalogError(description: "the title '\(title)' has no letters or digits to make an id from")
    }

    static func noVariants(title: String) -> CatalogError {
        CatalogError(description: "component '\(title)' has no variants: register at least one")
    }

    static func emptyVariantName(title: String, variant: String) -> CatalogError {
        CatalogError(description: "component '\(title)' has a variant '\(variant)' with no letters or digits to make an id from")
    }

    static func unencodableVariant(title: String, variant: String, reason: String) -> CatalogError {
        CatalogError(description: "component '\(title)' variant '\(variant)' cannot be encoded: \(reason)")
    }

    static func unmatchedHint(title: String, path: String, nearest: String?) -> CatalogError {
        let suggestion = nearest.map { ": did you mean '\($0)'?" } ?? ": the schema has no fields"
        return CatalogError(description: "component '\(title)' has a hint for '\(path)', which names no field of its schema\(suggestion)")
    }

    static func unsuitableHint(title: String, path: String, hint: FieldHint) -> CatalogError {
        CatalogError(description: "component '\(title)' has the hint .\(hint) for '\(path)', which it cannot apply there (.multiline and .color need a string, .readOnly a field)")
    }

    static func permutations(title: String, reason: String) -> CatalogError {
        CatalogError(description: "component '\(title)' permutations: \(reason)")
    }
}
