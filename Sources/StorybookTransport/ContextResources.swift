import CLibWebSockets

/// The C data libwebsockets keeps pointers to for as long as its context lives: the protocol table and
/// every C string handed to it. Built at run time (a global C array would not be
/// concurrency-safe in Swift 6), freed only after `lws_context_destroy`. Loop-thread only.
final class ContextResources {
    /// Our one protocol entry followed by the zeroed terminator lws expects.
    let protocols: UnsafeMutablePointer<lws_protocols>
    private let strings = CStringPool()

    /// - Parameters:
    ///   - protocolName: the protocol's name, which is also the WebSocket subprotocol lws selects when a
    ///     client offers it. Being `protocols[0]`, it also serves plain HTTP and upgrades that offer no
    ///     subprotocol.
    ///   - rxBufferSize: sizes the client's per-connection receive buffer (the most payload bytes lws
    ///     hands to one RECEIVE callback; `ClientLoop` reassembles messages). On the server, raw
    ///     WebSocket connections read into the context's `pt_serv_buf_size` buffer instead; there this
    ///     value only caps how much one `send` may take (lws adds its 16-byte headroom and 4), and lws
    ///     keeps the rest of a larger write for the next writeable round.
    init(
        protocolName: String,
        rxBufferSize: Int
    ) {
        protocols = .allocate(capacity: 2)
        protocols.initialize(repeating: lws_protocols(), count: 2)
        protocols[0].name = cString(protocolName)
        protocols[0].callback = serviceLoopCallback
        protocols[0].per_session_data_size = 0
        protocols[0].rx_buffer_size = rxBufferSize
    }

    deinit {
        protocols.deinitialize(count: 2)
        protocols.deallocate()
    }

    /// A C copy of `string` that stays valid as long as these resources.
    func cString(_ string: String) -> UnsafePointer<CChar> {
        strings.cString(string)
    }
}
