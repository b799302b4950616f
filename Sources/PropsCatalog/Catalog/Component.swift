/// A component registered in the storybook: a title, a Props type, named variants and a pure
/// render function from Props to the headless view.
///
/// ```swift
/// let greeting = Component<Greeting>("Demo/Greeting") { props in
///     Heading("Hello, \(props.name)")
/// }
/// .variant("Default", Greeting(name: "Ada"))
/// ```
public struct Component<Props: Codable & Sendable & Equatable>: Sendable {
    /// A named state worth looking at.
    public struct Variant: Sendable {
        /// The variant name, e.g. `"Default"`.
        public let name: String
        /// The props the variant shows.
        public let props: Props
    }

    /// The title path, `"Auth/Login"`; its slug is the component id.
    public let title: String
    /// The variants in registration order.
    public private(set) var variants: [Variant] = []
    /// Per-field editor hints, keyed by schema path (`/bio`, `/items/*/note`).
    public private(set) var hints: [String: FieldHint] = [:]
    /// How the accessibility audit's findings count for this component (`error` by default).
    public private(set) var auditLevel: AuditLevel = .error
    /// The short Markdown description the component overview shows (`.description(_:)`).
    public private(set) var summary: String?
    /// The generated stories asked for with `.permutations(from:over:limit:)` and `.values(_:_:)`.
    package internal(set) var permutations = PermutationSpec()
    /// Where the component was declared, `Module/File.swift:42`: the call site of its initializer.
    package let declaredAt: String
    let render: @Sendable (Props) -> [ViewNode]
    /// The suggestion function: the next Props, nil for no change, or an unknown typed command.
    private(set) var suggestion: (@Sendable (Props, CommandInvocation) -> Result<Props?, UnknownCommand>)?

    /// A component rendered by `render`, a pure function of its Props.
    ///
    /// - Parameters:
    ///   - title: The title path, `"Auth/Login"`.
    ///   - fileID: Leave the default: where the component is created, which agents are told
    ///     (the MCP `get_story` tool) so they can find the code.
    ///   - line: Leave the default: the line of that call.
    ///   - render: The view of a Props value.
    public init(
        _ title: String, fileID: String = #fileID, line: Int = #line,
        @ViewBuilder render: @escaping @Sendable (Props) -> [ViewNode]
    ) {
        self.title = title
        self.declaredAt = "\(fileID):\(line)"
        self.render = render
    }

    /// The same component with one more variant.
    public func variant(_ name: String, _ props: Props) -> Self {
        var copy = self
        copy.variants.append(Variant(name: name, props: props))
        return copy
    }

    /// The same component with a suggestion function: given the current Props and a command that
    /// was used, the Props it suggests next, or nil when the command changes nothing. Suggestions
    /// are validated like every other edit before they become live.
    public func suggesting(_ suggest: @escaping @Sendable (Props, CommandInvocation) -> Props?) -> Self {
        var copy = self
        copy.suggestion = { props, invocation in .success(suggest(props, invocation)) }
        return copy
    }

    /// The same component with a suggestion function over typed commands: each command is decoded
    /// into `Commands` first, and one that does not decode is refused as `unknown-command` (unless
    /// an embedded child handled it: then it only passes by).
    public func suggesting<Commands: CommandRepresentable>(
        _ commands: Commands.Type, _ suggest: @escaping @Sendable (Props, Invocation<Commands>) -> Props?
    ) -> Self {
        var copy = self
        copy.suggestion = { props, invocation in
            Commands.decodeCommand(invocation.command).map { command in
                suggest(props, Invocation(command, payload: invocation.payload))
            }
        }
        return copy
    }

    /// The same component with an editor hint for one field, for what inference cannot know.
    public func hint(_ path: String, _ hint: FieldHint) -> Self {
        var copy = self
        copy.hints[path] = hint
        return copy
    }

    /// The same component with its accessibility audit at `level`: `.todo` for known problems
    /// that are reported but do not fail CI, `.off` to skip the audit.
    public func accessibilityAudit(_ level: AuditLevel) -> Self {
        var copy = self
        copy.auditLevel = level
        return copy
    }

    /// The same component with a short Markdown description (paragraphs, `*emphasis*`, `` `code` ``,
    /// `[links](https://...)`) shown on its overview page.
    public func description(_ text: String) -> Self {
        var copy = self
        copy.summary = text
        return copy
    }

    /// The headless view of `props` in the current ``ViewEnvironment``.
    public func view(_ props: Props) -> [ViewNode] {
        render(props)
    }

    /// The Props the component's own suggestion function gives for a command (nil when it gives
    /// none or does not know the command). Embedded children are not asked: `Catalog` routes
    /// commands to them (docs/registering.md).
    public func suggest(_ props: Props, _ invocation: CommandInvocation) -> Props? {
        (try? suggestion?(props, invocation).get()) ?? nil
    }
}
