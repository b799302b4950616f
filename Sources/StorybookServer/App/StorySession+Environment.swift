import PropsCatalog

extension StorySession {
    /// The live version's projections in `environment`: the session's own in the default one,
    /// rendered from the live props otherwise, copying the output of the nodes the environment
    /// does not change from the session's own.
    func projections(in environment: ViewEnvironment) -> Projections {
        guard !environment.isStandard, case .success(let validated) = story.component.validate(props, in: environment, memo: memo) else {
            return projections
        }
        return Projections(validated.view, reusing: projections)
    }

    /// `GET /api/stories/{id}/audit`: `{"story", "level", "version", "findings", "elements"}`, the live
    /// version's findings in `environment` at the component's level, and the announced elements with
    /// their node paths and outline lines (what the UI's Accessibility tab points at in the preview).
    func auditJSON(in environment: ViewEnvironment) -> JSONValue {
        let view = (try? story.component.validate(props, in: environment, memo: memo).get())?.view ?? []
        let elements = AccessibilityTree.elements(view)
        let level = story.component.auditLevel
        guard case .object(var members) = AccessibilityAudit.json(story: story.id, level: level, findings: level.applied(to: AccessibilityAudit.findings(elements))) else {
            return .null
        }
        members["version"] = .integer(Int64(version))
        members["elements"] = .array(elements.map { ["node": .string($0.node), "line": .string(AccessibilityOutline.line($0))] })
        return .object(members)
    }

    /// "Title / Variant", the live document's title.
    var documentTitle: String { "\(story.component.title) / \(story.name)" }
}
