/// Names one client connection (an HTTP keep-alive connection or a WebSocket) across threads.
///
/// The transport never hands out `struct lws *` pointers: they are only valid on the loop thread and
/// may be reused by libwebsockets after a connection closes. An id is never reused while the transport
/// runs, so a reply addressed to a connection that has gone away is simply dropped.
package struct ConnectionID: Hashable, Sendable, CustomStringConvertible {
    package let raw: UInt64

    package init(raw: UInt64) {
        self.raw = raw
    }

    package var description: String { "conn-\(raw)" }
}
