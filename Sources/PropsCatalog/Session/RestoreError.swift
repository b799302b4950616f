/// A recorded version that cannot become live again: its props no longer decode (the Props type
/// changed), or the record is out of sequence.
package struct RestoreError: Error, Sendable, Equatable, CustomStringConvertible {
    package let version: Int
    package let reason: String

    package init(version: Int, reason: String) {
        self.version = version
        self.reason = reason
    }

    package var description: String { "version \(version): \(reason)" }
}
