import PropsCatalog
import StorybookTransport

/// Where a focused string field's text shows in the preview, for the browser to show a keystroke
/// before the server's state for it arrives (docs/protocol.md, `preview-field`).
///
/// A connection that sends `focus` with the pointer of a string field of a story it is subscribed
/// to gets, right away and after every version while the focus stays (but its own edits of the field
/// while the template it was told of holds), `{"type": "preview-field",
/// "story", "version", "path", "at", "length"}`: the UTF-16 offsets in that version's `html` (in
/// the connection's environment) where the field's escaped text shows, each `length` long, or
/// `"at": null` when the projection does not show the text as is (``PreviewTemplate``, kept by
/// ``PreviewFields``). It is made after the state is on its way, so no subscriber's state waits for it.
extension StoryHub {
    /// The connection now focuses `pointer` of `storyID` (nil, or the whole props: no field); a string
    /// field's `preview-field` goes to it at once when it is subscribed to the story.
    func focus(_ connection: ConnectionID, story storyID: String, pointer: JSONPointer?) {
        assertOnQueue()
        let pointer = pointer.flatMap { $0.tokens.isEmpty ? nil : $0 }
        previewFields.focus(connection, story: storyID, pointer: pointer)
        guard let pointer, stories(subscribedBy: connection).contains(storyID), let session = liveSession(storyID) else { return }
        sendPreviewField(of: session, at: pointer, to: connection)
    }

    /// Sends each subscriber focusing a field of the session's story (or `only` that one) the
    /// field's `preview-field` for the live version. `ownEdit`: the version is that connection's
    /// patch of that field alone, which needs no message while the template it was told of holds
    /// (``PreviewFields``).
    func sendPreviewFields(of session: StorySession, to only: ConnectionID? = nil, ownEdit: FieldEdit? = nil) {
        assertOnQueue()
        let focused = previewFields.focused(on: session.story.id)
        guard !focused.isEmpty else { return }
        let subscribed = Set(subscribers(of: session.story.id))
        for (connection, pointer) in focused where subscribed.contains(connection) && (only == nil || only == connection) {
            sendPreviewField(of: session, at: pointer, to: connection, ownEdit: ownEdit == FieldEdit(connection: connection, pointer: pointer))
        }
    }

    private func sendPreviewField(of session: StorySession, at pointer: JSONPointer, to connection: ConnectionID, ownEdit: Bool = false) {
        guard let message = previewFields.message(of: session, at: pointer, in: environment(of: connection), for: connection, ownEdit: ownEdit)
        else { return }
        send(message, to: connection, coalescingKey: "preview-field:" + session.story.id)
    }
}
