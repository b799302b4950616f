import CLibWebSockets

/// The one C callback of every lws protocol of the transport. A C function pointer cannot capture
/// context, so it finds its `ServiceLoop` through the context's user pointer and forwards.
func serviceLoopCallback(
    _ wsi: OpaquePointer?,
    _ reason: lws_callback_reasons,
    _ user: UnsafeMutableRawPointer?,
    _ input: UnsafeMutableRawPointer?,
    _ length: Int
) -> Int32 {
    guard let wsi else { return 0 }
    guard let context = lws_get_context(wsi), let owner = lws_context_user(context) else {
        return lws_callback_http_dummy(wsi, reason, user, input, length)
    }
    // The loop owns the context and outlives it, so it is used as it is: no retain and release around
    // every callback (several per request).
    return Unmanaged<ServiceLoop>.fromOpaque(owner)._withUnsafeGuaranteedRef { loop in
        loop.handle(wsi: wsi, reason: reason, user: user, input: input, length: length)
    }
}
