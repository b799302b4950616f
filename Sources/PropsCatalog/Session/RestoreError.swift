/// A recorded version that cannot become live again: its props no longer decode (the Props type
/// changed), or the record is out of sequence.
public struct RestoreError: Error, Sendable, Equatable, CustomStringConvertible {
    public let version: Int
    public let reason: String

    public init(version: Int, reason: String) {
        self.version = version
        self.reason = reason
    }

    public var description: String { "version \(version): \(reason)" }
}
