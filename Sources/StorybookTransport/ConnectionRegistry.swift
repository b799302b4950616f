import CLibWebSockets

/// The loop's live connections, by lws handle (for callbacks) and by id (for commands). Loop-thread only.
///
/// Records are created on a connection's first request or upgrade and removed on `CLOSED`,
/// `CLOSED_HTTP` or `WSI_DESTROY`, whichever comes first, so nothing outlives its lws connection even
/// when lws frees the connection without a close callback.
///
/// The record of a handle is found without hashing: the handle's lws opaque user data points at it
/// (unretained; `byID` holds the record, and the pointer is cleared when the record is removed).
struct ConnectionRegistry {
    private var byID: [ConnectionID: Connection] = [:]
    private var lastID: UInt64 = 0
    /// Open WebSockets by `raw` modulo the slot count, checked by id, so that a broadcast finds each
    /// subscriber without hashing its id (a dictionary lookup is a SipHash per subscriber per message).
    /// Ids are handed out in sequence, so live WebSockets rarely share a slot; one that lost its slot
    /// to a newer one is found in `byID`.
    private var webSocketSlots = [Connection?](repeating: nil, count: Self.slotCount)
    private static let slotCount = 4096

    /// The record of `wsi`, created if needed.
    mutating func connection(for wsi: OpaquePointer) -> Connection {
        if let existing = existing(wsi) { return existing }
        lastID += 1
        let connection = Connection(id: ConnectionID(raw: lastID), wsi: wsi)
        byID[connection.id] = connection
        lws_set_opaque_user_data(wsi, Unmanaged.passUnretained(connection).toOpaque())
        return connection
    }

    /// The record of `wsi`, if it has one.
    func existing(_ wsi: OpaquePointer) -> Connection? {
        guard let record = lws_get_opaque_user_data(wsi) else { return nil }
        return Unmanaged<Connection>.fromOpaque(record).takeUnretainedValue()
    }

    subscript(id: ConnectionID) -> Connection? {
        if let slotted = webSocketSlots[Self.slot(of: id)], slotted.id == id {
            return slotted
        }
        return byID[id]
    }

    /// Gives a connection that became a WebSocket its slot (see `webSocketSlots`).
    mutating func slotWebSocket(_ connection: Connection) {
        webSocketSlots[Self.slot(of: connection.id)] = connection
    }

    private static func slot(of id: ConnectionID) -> Int {
        Int(truncatingIfNeeded: id.raw) & (slotCount - 1)
    }

    /// Forgets `wsi`; returns its record if it had one.
    mutating func remove(_ wsi: OpaquePointer) -> Connection? {
        guard let connection = existing(wsi) else { return nil }
        lws_set_opaque_user_data(wsi, nil)
        byID[connection.id] = nil
        if webSocketSlots[Self.slot(of: connection.id)] === connection {
            webSocketSlots[Self.slot(of: connection.id)] = nil
        }
        return connection
    }

    /// The connections that are WebSockets.
    var webSockets: [Connection] {
        byID.values.filter { $0.webSocket != nil }
    }

    /// Whether a WebSocket still has something to do before the server may stop: it is open, or its
    /// last frame is not written and its side shut down yet (what comes after is the client's part).
    var hasWebSockets: Bool {
        byID.values.contains { $0.webSocket.map { $0.closing != .shutDown } ?? false }
    }
}
