/// A story's recorded versions, stored as patches with periodic snapshots.
///
/// Memory grows with the size of the edits, not with versions x props size: each entry keeps
/// the patch from the version before, and every `snapshotInterval` versions a full copy is kept
/// so that reading any version applies at most `snapshotInterval - 1` patches.
///
/// The patches are replayed as recorded, with no work budget: a diff may cost more to replay than
/// a client's edit may (see ``JSONPatch/replay(on:)``). One that does not apply is damage
/// (``HistoryDamage``): the versions rebuilt through it say so, and nothing else is affected.
///
/// Bounded: past `capacity` entries the oldest are dropped (with their snapshots), and the oldest
/// kept version always has a snapshot. Dropped versions can no longer be sought, undone to or
/// replayed; the live state and the version numbering are never affected.
package struct StoryHistory: Sendable {
    package static let defaultCapacity = 1_000
    package static let defaultSnapshotInterval = 32

    package let capacity: Int
    package let snapshotInterval: Int
    /// Entries with consecutive versions, oldest first.
    package private(set) var entries: [HistoryEntry] = []
    private var snapshots: [Int: JSONValue] = [:]

    package init(capacity: Int = defaultCapacity, snapshotInterval: Int = defaultSnapshotInterval) {
        self.capacity = max(capacity, 2)
        self.snapshotInterval = max(snapshotInterval, 1)
    }

    /// The oldest version still recorded.
    package var oldestVersion: Int? { entries.first?.version }
    /// The newest version recorded.
    package var newestVersion: Int? { entries.last?.version }

    /// Records `entry`, whose patch leads from the previous entry's props to `props`.
    package mutating func record(_ entry: HistoryEntry, props: JSONValue) {
        precondition(entries.last.map { $0.version + 1 == entry.version } ?? true, "history versions must be consecutive")
        if entries.isEmpty || entry.version % snapshotInterval == 0 {
            snapshots[entry.version] = props
        }
        entries.append(entry)
        if entries.count > capacity {
            trim(keeping: capacity * 9 / 10, newest: props)
        }
    }

    /// The entry of `version`, if it is still recorded.
    package func entry(version: Int) -> HistoryEntry? {
        guard let oldest = oldestVersion, version >= oldest, version - oldest < entries.count else { return nil }
        return entries[version - oldest]
    }

    /// The props of `version`, rebuilt from the nearest snapshot at or before it by replaying the
    /// recorded patches (with no work budget: the history recorded them itself). Nil when `version`
    /// is not recorded; ``HistoryDamage`` when a stored patch on the way does not apply.
    package func props(at version: Int) throws(HistoryDamage) -> JSONValue? {
        guard let oldest = oldestVersion, let newest = newestVersion, (oldest...newest).contains(version) else { return nil }
        // The oldest version always has a snapshot.
        guard let base = (oldest...version).reversed().first(where: { snapshots[$0] != nil }), var props = snapshots[base] else { return nil }
        for entry in entries[(base + 1 - oldest)..<(version + 1 - oldest)] {
            do {
                props = try entry.patch.replay(on: props)
            } catch {
                throw HistoryDamage(version: entry.version, reason: error.message)
            }
        }
        return props
    }

    /// Entries newer than `version` (all of them when nil).
    package func entries(since version: Int?) -> ArraySlice<HistoryEntry> {
        guard let version, let oldest = oldestVersion else { return entries[...] }
        let start = min(max(version + 1 - oldest, 0), entries.count)
        return entries[start...]
    }

    /// Drops the oldest entries, keeping `count`, and snapshots the new oldest version. When a stored
    /// patch on the way to it does not apply (damage), it keeps less: from the next version with a
    /// snapshot, or only the newest, whose `props` are known.
    private mutating func trim(keeping count: Int, newest props: JSONValue) {
        var newOldest = entries[entries.count - count].version
        let oldestProps: JSONValue
        if let rebuilt = try? self.props(at: newOldest) {
            oldestProps = rebuilt
        } else {
            newOldest = snapshots.keys.filter { $0 > newOldest }.min() ?? entries[entries.count - 1].version
            oldestProps = snapshots[newOldest] ?? props
        }
        entries.removeFirst(newOldest - entries[0].version)
        snapshots = snapshots.filter { $0.key > newOldest }
        snapshots[newOldest] = oldestProps
    }
}
