/// Work from other threads, drained on `LWS_CALLBACK_EVENT_WAIT_CANCELLED` after `lws_cancel_service`.
extension ServiceLoop {
    /// Executes every command queued since the last wake-up, in order.
    func drainMailbox() {
        let commands = transport.shared.withLock { $0.takeMailbox() }
        for command in commands {
            switch command {
            case .respond(let id, let response):
                respond(to: id, with: response)
            case .send(let text, let ids, let key, let dependsOnPrevious):
                enqueue(text, to: ids, coalescingKey: key, dependsOnPrevious: dependsOnPrevious)
            case .close(let id, let code, let reason):
                requestClose(id, CloseFrame(code: code, reason: reason))
            case .shutdown:
                beginShutdown()
            }
        }
    }
}
