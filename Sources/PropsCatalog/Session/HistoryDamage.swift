/// A recorded version that cannot be rebuilt: the stored patch of `version` does not apply to the
/// props before it. The live state is never affected; only versions rebuilt through that patch are.
package struct HistoryDamage: Error, Sendable, Equatable, CustomStringConvertible {
    /// The version whose stored patch does not apply.
    package let version: Int
    /// Why it does not, for people.
    package let reason: String

    package init(version: Int, reason: String) {
        self.version = version
        self.reason = reason
    }

    package var description: String { "the history is damaged: the stored patch of version \(version) does not apply (\(reason))" }
}
