import CLibWebSockets

/// The handle other threads use to wake the loop: `lws_cancel_service`, the one libwebsockets call that
/// may be made from any thread while the context exists.
struct LoopWaker: @unchecked Sendable {
    // @unchecked: it wraps the `lws_context` pointer, which is not Sendable. Other threads only ever pass
    // it to `lws_cancel_service`, and only under the transport's mutex while the phase is `running`; the
    // loop leaves that phase under the same mutex before destroying the context.
    private let context: OpaquePointer

    init(context: OpaquePointer) {
        self.context = context
    }

    /// Makes the loop's current or next `lws_service` deliver `LWS_CALLBACK_EVENT_WAIT_CANCELLED`.
    func wake() {
        lws_cancel_service(context)
    }
}
