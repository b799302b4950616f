import Foundation
import PropsCatalog

/// A renderer's report of one render (`{"type": "rendered", ...}`), and how it is sent so that it never
/// passes the server's message limit: a larger message would close the connection with 1009, and the
/// renderer would reconnect, render, report and be closed again, forever.
struct RenderReport: Sendable, Equatable {
    let story: String
    let version: Int
    var image: Data?
    var text: String?
    var error: String?

    /// The `rendered` message.
    var message: JSONValue {
        var members: [String: JSONValue] = ["type": "rendered", "story": .string(story), "version": .integer(Int64(version))]
        if let image { members["image"] = .string(image.base64EncodedString()) }
        if let text { members["text"] = .string(text) }
        if let error { members["error"] = .string(error) }
        return .object(members)
    }

    /// The bytes to send to a server that reads messages of at most `limit` bytes (nil: the server did not
    /// say, so the report goes as it is). A report over the limit goes without its image, with an `error`
    /// that says so and how to raise the limit; if it is still over (a very long text), without its text
    /// too, and past that without the app's own error. What is left (the story, the version and a few
    /// hundred bytes of error) fits any limit the server accepts (`--max-message-bytes` is at least 1,024).
    func encoded(within limit: Int?) -> [UInt8] {
        let whole = message.serializedBytes()
        guard let limit, whole.count > limit else { return whole }
        let over = "over the server's limit of \(limit) bytes per message"
        var reduced = self
        var reasons: [String] = []
        func cut(_ reason: String, keepingOwnError: Bool = true) -> [UInt8] {
            reasons.append(reason)
            let own = keepingOwnError ? error.map { [$0] } ?? [] : []
            reduced.error = (own + reasons).joined(separator: "; ") + " (the server's --max-message-bytes raises the limit)"
            return reduced.message.serializedBytes()
        }
        var bytes = whole
        if let image {
            reduced.image = nil
            bytes = cut("the image of \(image.count) bytes (\(whole.count) bytes as a report, in base64) is \(over)")
        }
        if bytes.count > limit, let text {
            reduced.text = nil
            bytes = cut("the text of \(text.utf8.count) bytes is \(over)")
        }
        if bytes.count > limit, let error {
            bytes = cut("the error of \(error.utf8.count) bytes is \(over)", keepingOwnError: false)
        }
        return bytes
    }
}
