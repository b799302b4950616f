/// Why a JSON Patch could not be read or applied.
///
/// `kind` tells callers how to respond (the server answers `testFailed` with 409 `test-failed`,
/// the others with 400/422); `message` is for people, e.g. `operation 2 (replace): /name does not exist`.
package struct JSONPatchError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The class of failure.
    package enum Kind: String, Sendable, Hashable {
        /// The patch document is not a valid RFC 6902 patch (wrong shape, missing member, bad pointer, unknown op).
        case malformed
        /// A `test` operation found a different value, or nothing, at its path.
        case testFailed
        /// An operation's location does not exist or cannot be used: missing member, bad or out-of-range
        /// index, removing the root, moving a value into one of its own children.
        case invalidTarget
        /// The result, or the work to build it, would exceed the ``JSONSizeLimit``.
        case tooLarge
    }

    /// The class of failure.
    package let kind: Kind
    /// The zero-based position of the offending operation in the patch, when one is to blame.
    package let operationIndex: Int?
    /// The JSON Pointer text of the offending operation's `path`, when it has one.
    package let path: String?
    /// A human-readable explanation that names the operation.
    package let message: String

    package init(kind: Kind, operationIndex: Int?, path: String?, message: String) {
        self.kind = kind
        self.operationIndex = operationIndex
        self.path = path
        self.message = message
    }

    package var description: String { message }
}
