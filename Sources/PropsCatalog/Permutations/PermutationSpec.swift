/// What a component asks to have generated: the base variant, the dimensions, hand-given values
/// and the size limit of the full product. Built with `Component.permutations(from:over:limit:)`
/// and `Component.values(_:_:)`; docs/registering.md shows both.
package struct PermutationSpec: Sendable, Equatable {
    /// The name of the variant every generated story starts from; nil when nothing is generated.
    package var base: String?
    /// Schema paths of the dimensions; nil for every dimension inferred from the schema.
    package var over: [String]?
    /// Hand-given values by schema path, each with the label it has in names and settings.
    package var values: [HandValues] = []
    /// The full product is generated while it has at most this many stories, else all-pairs.
    package var limit = 64
    /// Hand-given values that could not be encoded: reported when the component is registered.
    var problems: [String] = []

    package init() {}

    /// The values given for one path, in order.
    package struct HandValues: Sendable, Equatable {
        package var path: String
        package var values: [Labelled]
    }

    /// One value and its label (nil: made from the value).
    package struct Labelled: Sendable, Equatable {
        package var label: String?
        package var json: JSONValue
    }
}

extension Component {
    /// The same component with generated stories: every combination of the dimensions' values
    /// applied to the variant `base` (the full product up to `limit` stories, else all-pairs).
    ///
    /// Dimensions are inferred from the schema: `Bool`, `CaseIterable` enums, optionals (nil and
    /// the base value) and unions (every case the variants show there, with its payload); `over`
    /// names the ones to use (schema paths like `/status`), none for all of them. A path given
    /// values with `.values(_:_:)` is always a dimension.
    public func permutations(from base: String, over paths: String..., limit: Int = 64) -> Self {
        var copy = self
        copy.permutations.base = base
        copy.permutations.over = paths.isEmpty ? nil : paths
        copy.permutations.limit = max(1, limit)
        return copy
    }

    /// The same component with hand-given values for the field at `path` (a JSON Pointer into the
    /// props, `/name`), used as one dimension of the generated stories. Strings, numbers and
    /// booleans label themselves; other values are labelled `#1`, `#2`… (see `values(_:named:)`).
    public func values<Value: Encodable & Sendable>(_ path: String, _ values: [Value]) -> Self {
        labelledValues(path, values.map { (nil, $0) })
    }

    /// The same component with hand-given, labelled values for the field at `path`:
    /// `.values("/locations", named: ["empty": [], "long names": longNames])`.
    public func values<Value: Encodable & Sendable>(_ path: String, named values: KeyValuePairs<String, Value>) -> Self {
        labelledValues(path, values.map { ($0.key, $0.value) })
    }

    private func labelledValues<Value: Encodable>(_ path: String, _ values: [(String?, Value)]) -> Self {
        var copy = self
        let encoder = JSONValueEncoder()
        var labelled: [PermutationSpec.Labelled] = []
        for (label, value) in values {
            do {
                labelled.append(.init(label: label, json: try encoder.encode(value)))
            } catch {
                copy.permutations.problems.append("the values for '\(path)' cannot be encoded: \(error)")
            }
        }
        copy.permutations.values.removeAll { $0.path == path }
        copy.permutations.values.append(.init(path: path, values: labelled))
        return copy
    }
}
