/// Turns a component's `PermutationSpec` into candidate stories: the dimensions, the rows of the
/// full product or of all-pairs, and each row's props (the base variant with the row's values put
/// at the dimensions' paths), named after what they set.
struct PermutationGenerator {
    /// A combination before validation.
    struct Candidate: Sendable {
        let settings: StorySettings
        /// The props, or why the values could not be put in place.
        let props: Result<JSONValue, PropsError>
    }

    let spec: PermutationSpec
    let schema: EditorSchema
    let base: JSONValue
    let samples: [JSONValue]

    /// The candidates, simplest first (fewest settings, then in dimension order); never the base itself.
    func candidates() throws(PermutationError) -> [Candidate] {
        let dimensions = try DimensionFinder(schema: schema, base: base, samples: samples).dimensions(spec)
        return Self.rows(dimensions, limit: spec.limit).map { row in candidate(row, dimensions) }
    }

    /// The rows: the full product when it makes at most `limit` stories, else all-pairs; without
    /// the all-base row, simplest first: by how many dimensions differ from the base, then by which
    /// dimensions (in their order), then by the values' positions.
    static func rows(_ dimensions: [PermutationDimension], limit: Int) -> [[Int]] {
        let counts = dimensions.map(\.values.count)
        let bases = dimensions.map(\.baseIndex)
        let rows = CoveringArray.productSize(counts) - 1 <= limit
            ? CoveringArray.product(counts)
            : CoveringArray.allPairs(counts, filler: bases)
        let key = { (row: [Int]) -> [Int] in
            let changed = row.indices.filter { row[$0] != bases[$0] }
            return [changed.count] + changed + changed.map { row[$0] }
        }
        return rows.filter { $0 != bases }.map { (key($0), $0) }
            .sorted { $0.0.lexicographicallyPrecedes($1.0) }
            .map(\.1)
    }

    private func candidate(_ row: [Int], _ dimensions: [PermutationDimension]) -> Candidate {
        var settings: [StorySettings.Setting] = []
        var operations: [JSONPatchOperation] = []
        for (dimension, position) in zip(dimensions, row) where position != dimension.baseIndex {
            let value = dimension.values[position]
            settings.append(.init(dimension: dimension.name, label: value.label, value: value.setting))
            operations.append(.replace(path: dimension.pointer, value: value.json))
        }
        let props: Result<JSONValue, PropsError>
        do throws(JSONPatchError) {
            props = .success(try JSONPatch(operations: operations).apply(to: base))
        } catch {
            props = .failure(PropsError(path: (try? JSONPointer(parsing: error.path ?? "")) ?? JSONPointer(), message: error.message))
        }
        return Candidate(settings: StorySettings(settings: settings), props: props)
    }
}
