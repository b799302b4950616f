/// A registered component with its Props type erased: JSON in, JSON and views out.
///
/// The server works on this alone. Every JSON value that reaches a story goes through
/// `validate`, which decodes it into the Props type, so nothing invalid ever becomes live.
public struct AnyComponent: Sendable {
    /// A variant as the server sees it: its id, name and props as canonical JSON.
    public struct Variant: Sendable, Equatable {
        /// The story id, `<component-id>--<variant-slug>`.
        public let id: String
        /// The name given at registration (or when saved).
        public let name: String
        /// The props, in their canonical JSON encoding.
        public let props: JSONValue
        /// Saved from the browser or the API into the variants directory, not registered in code.
        public var isSaved = false
        /// What a generated story sets (`.permutations`); nil for registered and saved variants.
        package var settings: StorySettings?

        /// Generated from the component's permutations rather than registered.
        package var isGenerated: Bool { settings != nil }
    }

    /// Props that decoded: their canonical JSON (what re-encoding the decoded value gives; the very
    /// value validated when that is identical to it) and view.
    package struct Validated: Sendable, Equatable {
        package let props: JSONValue
        package let view: [ViewNode]
    }

    /// The component id: the slug of the title path.
    public let id: String
    /// The title path, `"Auth/Login"`.
    public let title: String
    /// The Swift name of the Props type, e.g. `UserProfile`.
    public let propsType: String
    /// Where the component was declared, `Module/File.swift:42`: its registration, not the Props
    /// type's own declaration, which is not known at run time.
    package let declaredAt: String
    /// The variants: registered, generated, then saved.
    public private(set) var variants: [Variant]
    /// Whether the component turns commands into suggested Props.
    package let hasSuggestions: Bool
    /// How the accessibility audit's findings count for this component.
    package let auditLevel: AuditLevel
    /// The short Markdown description given with `.description(_:)`.
    public let summary: String?
    /// The variant the generated stories start from, when the component has permutations.
    package let permutationBase: String?
    /// Generated combinations that did not become stories, with why.
    package private(set) var leftOut: [LeftOutStory] = []
    private let validateJSON: @Sendable (JSONValue, RoundTripMemo?) -> Result<Validated, PropsError>
    private let suggestJSON: @Sendable (JSONValue, CommandInvocation) -> Result<JSONValue?, EditError>
    private let handlersOf: @Sendable (Command, JSONValue) -> [String]
    private let inferSchema: @Sendable () -> EditorSchema

    /// Erases `component`, encoding each variant. Throws when a variant's props cannot be encoded,
    /// or when a hint's path names no field of the schema.
    public init<Props>(_ component: Component<Props>) throws(CatalogError) {
        let encoder = JSONValueEncoder()
        let id = Slug.make(component.title)
        var variants: [Variant] = []
        for variant in component.variants {
            do {
                variants.append(Variant(id: Slug.storyID(componentID: id, variantName: variant.name),
                                        name: variant.name, props: try encoder.encode(variant.props)))
            } catch {
                throw CatalogError.unencodableVariant(title: component.title, variant: variant.name, reason: "\(error)")
            }
        }
        self.id = id
        self.title = component.title
        self.propsType = String(describing: Props.self)
        self.declaredAt = component.declaredAt
        self.variants = variants
        // The children the variants embed: their schemas and variants teach the parent's schema.
        var children: [String: EmbeddedChild] = [:]
        // Each variant's children with hints, to find where their props sit (``EmbeddedChild/hints(of:in:)``).
        var hinted: [(sample: JSONValue, children: [EmbeddedChild])] = []
        for (variant, sample) in zip(component.variants, variants.map(\.props)) {
            let met = EmbedRecorder.children({ component.view(variant.props) })
            for child in met where children[child.title] == nil { children[child.title] = child }
            let withHints = met.filter { !$0.hints.isEmpty }
            if !withHints.isEmpty { hinted.append((sample, withHints)) }
        }
        self.hasSuggestions = component.suggestion != nil || !children.isEmpty
        self.auditLevel = component.auditLevel
        self.summary = component.summary
        self.permutationBase = component.permutations.base

        // The validated value alone: a `(Props, Validated)` pair, a tuple with a generic member, had its
        // metadata looked up at run time on every edit (and mapping it, a key path or a generic closure).
        let decodeAndRender: @Sendable (JSONValue, RoundTripTable?) -> Result<Validated, PropsError> = { json, memo in
            do {
                let props = try PropsDecoding.decode(Props.self, from: json, memo: memo)
                let canonical = try encoder.encode(props, memo: memo)
                let reordered = { (try? encoder.encodeNotingCanonicalOrder(props).reordered) ?? [] }
                // The sent value itself when the round trip gave it back exactly: it shares storage with
                // the props a patch started from, so the history diff skips what the patch left alone.
                switch PropsDecoding.keptValue(sent: json, kept: canonical, reordered: reordered) {
                case .failure(let difference): return .failure(difference)
                case .success(let kept):
                    // Rows of `ForEach(memoizing:)` are kept for the default environment only.
                    let rows = memo.flatMap { ViewEnvironment.current.isStandard ? $0.rows : nil }
                    let view = RowMemo.$current.withValue(rows) { component.view(props) }
                    return .success(Validated(props: kept, view: view))
                }
            } catch let error as PropsError {
                return .failure(error)
            } catch {
                return .failure(PropsError(path: JSONPointer(), message: "cannot encode props: \(error)"))
            }
        }
        self.validateJSON = { json, memo in
            guard let memo else { return decodeAndRender(json, nil) }
            return memo.withTable { table in
                let result = decodeAndRender(json, table)
                if case .success = result { return (result, true) }
                return (result, false)
            }
        }
        self.suggestJSON = { json, invocation in
            component.route(json, invocation)
        }
        self.handlersOf = { command, json in
            guard let props = try? PropsDecoding.decode(Props.self, from: json) else { return [] }
            return component.handlers(of: command, in: props)
        }
        let samples = variants.map(\.props)
        let hints = component.hints
        let teachers = children.keys.sorted().map { children[$0]!.teachSchema }
        let childHinted = hinted
        self.inferSchema = {
            let schema = EditorSchema.infer(Props.self, samples: samples, hints: hints, teachers: teachers)
            return schema.applying(EmbeddedChild.hints(of: childHinted, in: schema).filter { hints[$0.key] == nil })
        }
        if !hints.isEmpty {
            let unhinted = EditorSchema.infer(Props.self, samples: samples, teachers: teachers)
            if let path = unhinted.unmatchedHints(hints).first {
                if unhinted.schema(at: path) != nil {
                    throw CatalogError.unsuitableHint(title: component.title, path: path, hint: hints[path]!)
                }
                throw CatalogError.unmatchedHint(title: component.title, path: path, nearest: unhinted.nearestPath(to: path))
            }
        }
        try addPermutations(component.permutations, title: component.title)
    }

    /// Appends the generated stories `spec` asks for; combinations that do not decode, or whose id
    /// is taken, go to `leftOut`. Throws when the spec itself is wrong (unknown base, bad path).
    private mutating func addPermutations(_ spec: PermutationSpec, title: String) throws(CatalogError) {
        guard let baseName = spec.base else {
            if let path = spec.values.first?.path {
                throw CatalogError.permutations(title: title, reason: "values are given for '\(path)' but no .permutations(from:) names a base variant")
            }
            return
        }
        if let problem = spec.problems.first { throw CatalogError.permutations(title: title, reason: problem) }
        guard let base = variants.first(where: { $0.name == baseName }) else {
            throw CatalogError.permutations(title: title, reason: "there is no variant '\(baseName)' to start the permutations from")
        }
        let candidates: [PermutationGenerator.Candidate]
        do throws(PermutationError) {
            candidates = try PermutationGenerator(spec: spec, schema: schema(), base: base.props, samples: variants.map(\.props)).candidates()
        } catch {
            throw CatalogError.permutations(title: title, reason: error.description)
        }
        var taken = Dictionary(variants.map { ($0.id, $0.name) }, uniquingKeysWith: { first, _ in first })
        for candidate in candidates {
            let name = candidate.settings.name
            let id = Slug.storyID(componentID: self.id, variantName: name)
            let leave = { (message: String, path: JSONPointer?) in
                LeftOutStory(name: name, settings: candidate.settings, message: message,
                             path: path.flatMap { $0.tokens.isEmpty ? nil : $0.description })
            }
            if let owner = taken[id] {
                leftOut.append(leave("the story id '\(id)' is taken by '\(owner)'", nil))
                continue
            }
            switch candidate.props.flatMap({ validate($0) }) {
            case .failure(let error):
                leftOut.append(leave(error.message, error.path))
            case .success(let validated):
                taken[id] = name
                variants.append(Variant(id: id, name: name, props: validated.props, settings: candidate.settings))
            }
        }
    }

    /// Decodes `json` into the Props type and renders it; the error names the field at fault.
    /// `memo`, when given, remembers what this validation decoded and encoded, so that the next one
    /// (of props that share storage with these, as a patch's candidate does) skips what did not change.
    package func validate(_ json: JSONValue, memo: RoundTripMemo? = nil) -> Result<Validated, PropsError> {
        validateJSON(json, memo).mapError(explained)
    }

    /// Validates `json` and renders it in `environment` (read by the render function as `ViewEnvironment.current`).
    package func validate(_ json: JSONValue, in environment: ViewEnvironment, memo: RoundTripMemo? = nil) -> Result<Validated, PropsError> {
        environment.apply { validateJSON(json, memo) }.mapError(explained)
    }

    /// A value no case of a `CaseIterable` enum has says which values the field takes (from the
    /// schema; an enum that is not `CaseIterable` has none to say).
    private func explained(_ error: PropsError) -> PropsError {
        guard error.isUnknownRawValue else { return error }
        var schema = schema().schema(at: error.path)
        if case .optional(let wrapped)? = schema { schema = wrapped }
        guard case .enumeration(_, let values)? = schema, !values.isEmpty else { return error }
        let allowed = values.map { $0.serialized() }.joined(separator: ", ")
        return PropsError(path: error.path, message: "\(error.message); expected one of \(allowed)", isUnknownRawValue: true)
    }

    /// The Props that `invocation` suggests from `json`, or nil when the component suggests nothing.
    /// The result still has to be validated like any edit.
    /// A command from an embedded child's view goes to that child first and its suggestion is
    /// written back where the child's props are; a typed command the component does not know is
    /// an `unknown-command` error.
    package func suggest(from json: JSONValue, _ invocation: CommandInvocation) -> Result<JSONValue?, EditError> {
        suggestJSON(json, invocation)
    }

    /// The titles of the embedded components (outermost first) that handle `command` used in the
    /// view of `json` before this component does; empty when the command is the component's own.
    package func handlers(of command: Command, in json: JSONValue) -> [String] {
        handlersOf(command, json)
    }

    /// The editor schema of the Props type, inferred from the type and the variants.
    package func schema() -> EditorSchema {
        inferSchema()
    }

    /// This component with one more variant, saved outside the code. The props are validated
    /// (and canonicalized) by decoding them into the Props type; the name must make a new id.
    package func addingSavedVariant(named name: String, props: JSONValue) -> Result<AnyComponent, SavedVariantError> {
        let id = Slug.storyID(componentID: self.id, variantName: name)
        guard !Slug.make(name).isEmpty else {
            return .failure(SavedVariantError(.badName, "a variant name needs letters or digits", path: "/name"))
        }
        if let existing = variants.first(where: { $0.id == id }) {
            return .failure(SavedVariantError(.idTaken, "the story id '\(id)' is taken by the variant '\(existing.name)'", path: "/name"))
        }
        switch validate(props) {
        case .failure(let error):
            return .failure(SavedVariantError(.invalidProps, error.message, path: error.path.description))
        case .success(let validated):
            var copy = self
            copy.variants.append(Variant(id: id, name: name, props: validated.props, isSaved: true))
            return .success(copy)
        }
    }

    /// The variant with this story id.
    package func variant(id: String) -> Variant? {
        variants.first { $0.id == id }
    }
}
