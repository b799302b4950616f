/// One dimension of the generated stories: a place in the props and the values it takes there.
package struct PermutationDimension: Sendable, Equatable {
    /// One value of the dimension.
    package struct Value: Sendable, Equatable {
        /// How names show it: `true`, `failed`, `nil`, `loading`, `""`.
        package var label: String
        /// What the story's `settings` say: booleans, enum raw values, null and unlabelled hand-given
        /// scalars as themselves; union cases by name; anything else by its label.
        package var setting: JSONValue
        /// The JSON put at the dimension's path.
        package var json: JSONValue
    }

    /// Where in the props, e.g. `/status` or `/input/_0/status`.
    package var pointer: JSONPointer
    /// The name in story names and settings: the path's field names joined by `.`, without union
    /// case names and `_0`-style payload positions (`/input/_0/status` -> `status`).
    package var name: String
    package var values: [Value]
    /// The position of the base variant's value in `values`.
    package var baseIndex: Int

    /// Whether a token is an unlabelled payload position: `_0`, `_1`…
    static func isPosition(_ token: String) -> Bool {
        token.hasPrefix("_") && token.count > 1 && token.dropFirst().allSatisfy(\.isASCII) && token.dropFirst().allSatisfy(\.isNumber)
    }

    /// The label of a value nobody labelled: scalars print themselves (strings cut at 24 characters),
    /// anything else is `#position` (1-based).
    static func label(of value: JSONValue, position: Int) -> String {
        switch value {
        case .null: return "nil"
        case .bool(let flag): return flag ? "true" : "false"
        case .integer, .double, .exactNumber: return value.serialized()
        case .string(let text):
            if text.isEmpty { return "\"\"" }
            let cut = text.prefix(24)
            return cut.count < text.count ? cut + "…" : text
        case .array, .object: return "#\(position)"
        }
    }
}
