/// The projection a CI route answers: `?format=text` (the outline `/render/{id}.txt` serves) or
/// `?format=html` (the standalone document `/render/{id}.html` serves).
enum ProjectionFormat: String, Sendable, Hashable, CaseIterable {
    case text, html
}
