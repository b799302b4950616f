/// The configured durations in the whole seconds libwebsockets counts in.
extension TransportConfiguration {
    /// `responseTimeout` in whole seconds, for `lws_set_timeout` (rounded up, at most 65535).
    var responseSeconds: Int32 { Int32(Self.wholeSeconds(responseTimeout)) }

    private static func wholeSeconds(_ duration: Duration) -> UInt16 {
        let (seconds, attoseconds) = duration.components
        let rounded = seconds + (attoseconds > 0 ? 1 : 0)
        return UInt16(clamping: max(1, rounded))
    }
}
