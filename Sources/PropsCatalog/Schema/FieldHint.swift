/// An editor hint for what inference cannot know, keyed by schema path (see `docs/schema.md`).
public enum FieldHint: Sendable, Hashable {
    /// Edit the string at the path with a text area (`"format": "multiline"`).
    case multiline
    /// Edit the string at the path with a colour picker (`"format": "color"`).
    case color
    /// Show the field at the path without an editing control (`"readOnly": true` on the field).
    case readOnly
}
