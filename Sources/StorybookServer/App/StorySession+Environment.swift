import PropsCatalog

extension StorySession {
    /// The live version's projections in `environment`: the session's own in the default one,
    /// rendered from the live props otherwise.
    func projections(in environment: ViewEnvironment) -> Projections {
        guard !environment.isStandard, case .success(let validated) = story.component.validate(props, in: environment) else {
            return projections
        }
        return Projections(validated.view)
    }

    /// The audit of the live version in `environment`, at the component's level.
    func findings(in environment: ViewEnvironment) -> [AuditFinding] {
        story.component.auditLevel.applied(to: projections(in: environment).findings)
    }

    /// "Title / Variant", the live document's title.
    var documentTitle: String { "\(story.component.title) / \(story.name)" }
}
