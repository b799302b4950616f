import PropsCatalog
import StorybookTransport

/// The string field each connection focuses, and the ``PreviewTemplate`` of each focused field:
/// what `preview-field` messages are made of (StoryHub+PreviewFields.swift, docs/protocol.md).
///
/// A template is kept while it still gives the live HTML for the live text, so a typist's own edits,
/// which change that field alone, cost a comparison of the HTML, not another validation and render.
/// A field found not to show its text as is stays so until a connection focuses it again.
///
/// Lives on the ``AppQueue`` beside the hub.
final class PreviewFields {
    private var focused: [String: [ConnectionID: JSONPointer]] = [:]
    /// nil: the field's text does not show as is.
    private var templates: [Key: PreviewTemplate?] = [:]

    private struct Key: Hashable {
        let story: String
        let pointer: JSONPointer
        let environment: ViewEnvironment
    }

    /// No connection focuses a field.
    var isEmpty: Bool { focused.isEmpty }

    /// The connections focusing a field of a story, with the field.
    func focused(on storyID: String) -> [ConnectionID: JSONPointer] {
        focused[storyID] ?? [:]
    }

    /// The connection now focuses `pointer` of `storyID` (nil: nothing). Focusing a field checks it anew.
    func focus(_ connection: ConnectionID, story storyID: String, pointer: JSONPointer?) {
        unfocus(connection)
        guard let pointer else { return }
        focused[storyID, default: [:]][connection] = pointer
        templates = templates.filter { !($0.key.story == storyID && $0.key.pointer == pointer) }
    }

    /// Forgets the field a connection focuses, and the templates no one focuses any more.
    func unfocus(_ connection: ConnectionID) {
        for storyID in Array(focused.keys) where focused[storyID]?.removeValue(forKey: connection) != nil {
            if focused[storyID]?.isEmpty == true { focused[storyID] = nil }
        }
        templates = templates.filter { focused[$0.key.story]?.values.contains($0.key.pointer) == true }
    }

    /// The `preview-field` message of a field for the live version of `session` in `environment`;
    /// nil when the field is not a string.
    func message(of session: StorySession, at pointer: JSONPointer, in environment: ViewEnvironment) -> JSONValue? {
        guard case .string(let text)? = session.props.value(at: pointer) else { return nil }
        let live = session.projections(in: environment)
        let key = Key(story: session.story.id, pointer: pointer, environment: environment)
        let template: PreviewTemplate?
        if let known = templates[key], known?.reproduces(live.html, filledWith: text) ?? true {
            template = known
        } else {
            template = PreviewTemplate.make(session.story.component, props: session.props, at: pointer, in: environment, live: live)
            templates[key] = .some(template)
        }
        var message: [String: JSONValue] = [
            "type": "preview-field", "story": .string(session.story.id), "version": .integer(Int64(session.version)),
            "path": .string(pointer.description), "at": .null, "length": .integer(0),
        ]
        if let (offsets, length) = template?.offsets(filledWith: text) {
            message["at"] = .array(offsets.map { .integer(Int64($0)) })
            message["length"] = .integer(Int64(length))
        }
        return .object(message)
    }
}
