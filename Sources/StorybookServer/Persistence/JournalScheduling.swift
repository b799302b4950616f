/// Where a ``Journal`` runs a compaction while the server is serving: `background` runs the file
/// work (serializing the snapshot, writing and syncing it) off the app queue, and `onQueue` brings
/// the result back to the app queue, where the journal's state lives.
struct JournalScheduling: Sendable {
    let background: @Sendable (@escaping @Sendable () -> Void) -> Void
    let onQueue: @Sendable (@escaping @Sendable () -> Void) -> Void
}
