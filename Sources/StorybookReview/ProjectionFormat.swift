/// The projection a CI route answers: `?format=text` (the outline `/render/{id}.txt` serves),
/// `?format=html` (the standalone document `/render/{id}.html` serves) or `?format=a11y` (the
/// accessibility outline `/render/{id}.a11y.txt` serves).
package enum ProjectionFormat: String, Sendable, Hashable, CaseIterable {
    case text, html, a11y

    /// The file name ending of the projection: `.txt`, `.a11y.txt` or `.html`.
    package var fileExtension: String {
        switch self {
        case .text: ".txt"
        case .html: ".html"
        case .a11y: ".a11y.txt"
        }
    }
}
