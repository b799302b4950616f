/// The one place where libwebsockets return codes become typed Swift errors.
///
/// Every lws function that can fail is called through one of these helpers, named after the C
/// function, so a failure always says which call failed and with what code.
enum LWSCall {
    /// For functions that return 0 on success and nonzero on failure (the header builders,
    /// `lws_finalize_write_http_header`, `lws_timed_callback_vh_protocol_us`, ...).
    static func check(_ function: StaticString, _ result: Int32) throws(TransportError) {
        guard result == 0 else {
            throw .callFailed("\(function)", code: Int(result))
        }
    }

    /// For `lws_write`, which returns how many bytes it took (buffering any part the socket refused) or
    /// a negative value when the connection is unusable.
    static func checkWrite(_ result: Int32, expected: Int) throws(TransportError) {
        guard Int(result) == expected else {
            throw .callFailed("lws_write", code: Int(result))
        }
    }

    /// For functions that return NULL on failure.
    static func check<Pointer>(_ function: StaticString, _ pointer: Pointer?) throws(TransportError) -> Pointer {
        guard let pointer else {
            throw .callFailed("\(function)", code: 0)
        }
        return pointer
    }
}
