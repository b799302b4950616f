/// The projection a CI route answers: `?format=text` (the outline `/render/{id}.txt` serves),
/// `?format=html` (the standalone document `/render/{id}.html` serves) or `?format=a11y` (the
/// accessibility outline `/render/{id}.a11y.txt` serves).
enum ProjectionFormat: String, Sendable, Hashable, CaseIterable {
    case text, html, a11y
}
