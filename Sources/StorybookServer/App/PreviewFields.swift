import PropsCatalog
import StorybookTransport

/// The string field each connection focuses, and the ``PreviewTemplate`` of each focused field:
/// what `preview-field` messages are made of (StoryHub+PreviewFields.swift, docs/protocol.md).
///
/// A template is kept while it still gives the live HTML for the live text, so a typist's own edits,
/// which change that field alone, cost a comparison of the HTML, not another validation and render.
/// A field found not to show its text as is stays so until a connection focuses it again.
///
/// A version made by a connection's own edit of its focused field alone, right after the version it
/// was last told of, needs no message when the template it was told of still gives the new HTML:
/// the client fills the template it has (docs/protocol.md, `preview-field`).
///
/// Lives on the ``AppQueue`` beside the hub.
final class PreviewFields {
    private var focused: [String: [ConnectionID: JSONPointer]] = [:]
    private var templates: [Key: Made] = [:]
    /// What each focusing connection was last told: the version, and the template it was made from.
    private var described: [ConnectionID: Described] = [:]
    /// The serial of the next template made.
    private var nextSerial = 0

    /// A template and its serial, which tells templates made at different times apart; a nil
    /// template: the field's text does not show as is.
    private struct Made {
        let template: PreviewTemplate?
        let serial: Int
    }

    private struct Described: Equatable {
        let story: String
        let version: Int
        let serial: Int
    }

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
        described[connection] = nil
        for storyID in Array(focused.keys) where focused[storyID]?.removeValue(forKey: connection) != nil {
            if focused[storyID]?.isEmpty == true { focused[storyID] = nil }
        }
        templates = templates.filter { focused[$0.key.story]?.values.contains($0.key.pointer) == true }
    }

    /// The `preview-field` message of a field for the live version of `session` in `environment`, for
    /// `connection`; nil when the field is not a string, or when the version is `connection`'s own edit
    /// of that field alone (`ownEdit`) right after the version it was last told of and the template
    /// it was told of still gives the live HTML (the client fills the template it has).
    func message(of session: StorySession, at pointer: JSONPointer, in environment: ViewEnvironment,
                 for connection: ConnectionID, ownEdit: Bool = false) -> JSONValue? {
        guard case .string(let text)? = session.props.value(at: pointer) else { return nil }
        let live = session.projections(in: environment)
        let key = Key(story: session.story.id, pointer: pointer, environment: environment)
        let made: Made
        if let known = templates[key], known.template?.reproduces(live.html, filledWith: text) ?? true {
            made = known
        } else {
            made = Made(template: PreviewTemplate.make(session.story.component, props: session.props, at: pointer, in: environment, live: live),
                        serial: nextSerial)
            nextSerial += 1
            templates[key] = made
        }
        let told = described[connection]
        described[connection] = Described(story: session.story.id, version: session.version, serial: made.serial)
        if ownEdit, told == Described(story: session.story.id, version: session.version - 1, serial: made.serial) {
            return nil
        }
        var message: [String: JSONValue] = [
            "type": "preview-field", "story": .string(session.story.id), "version": .integer(Int64(session.version)),
            "path": .string(pointer.description), "at": .null, "length": .integer(0),
        ]
        if let (offsets, length) = made.template?.offsets(filledWith: text) {
            message["at"] = .array(offsets.map { .integer(Int64($0)) })
            message["length"] = .integer(Int64(length))
        }
        return .object(message)
    }
}
