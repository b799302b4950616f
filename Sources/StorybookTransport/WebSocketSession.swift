/// One open WebSocket: reassembly of what comes in, the queue of what goes out. Loop-thread only.
///
/// A class, so the loop mutates the one record in place on every delivery instead of copying it out of
/// its connection and back.
final class WebSocketSession {
    let upgrade: UpgradeRequest
    var inbound: MessageAssembler
    var outbound: OutboundQueue<OutboundFrame, CoalescingKey>
    var watchdog = WriteWatchdog()
    /// The close to send once `outbound` is written (at once when the transport empties the queue
    /// itself, for shutdown or overflow).
    var pendingClose: CloseFrame?
    /// A close was requested or is under way: messages sent from now on are dropped.
    var isClosing = false

    init(upgrade: UpgradeRequest, maxMessageBytes: Int, maxQueuedMessages: Int) {
        self.upgrade = upgrade
        self.inbound = MessageAssembler(limit: maxMessageBytes)
        self.outbound = OutboundQueue(capacity: maxQueuedMessages)
    }
}
