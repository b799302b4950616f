/// A story's recorded versions, stored as patches with periodic snapshots.
///
/// Memory grows with the size of the edits, not with versions x props size: each entry keeps
/// the patch from the version before, and every `snapshotInterval` versions a full copy is kept
/// so that reading any version applies at most `snapshotInterval - 1` patches.
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
            trim(keeping: capacity * 9 / 10)
        }
    }

    /// The entry of `version`, if it is still recorded.
    package func entry(version: Int) -> HistoryEntry? {
        guard let oldest = oldestVersion, version >= oldest, version - oldest < entries.count else { return nil }
        return entries[version - oldest]
    }

    /// The props of `version`, rebuilt from the nearest snapshot at or before it.
    package func props(at version: Int) -> JSONValue? {
        guard let oldest = oldestVersion, let newest = newestVersion, (oldest...newest).contains(version) else { return nil }
        var base = version
        while snapshots[base] == nil { base -= 1 }
        var props = snapshots[base]!
        guard base < version else { return props }
        for entry in entries[(base + 1 - oldest)...(version - oldest)] {
            do {
                props = try entry.patch.apply(to: props)
            } catch {
                return nil
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

    private mutating func trim(keeping count: Int) {
        let newOldest = entries[entries.count - count].version
        let props = self.props(at: newOldest)!
        entries.removeFirst(entries.count - count)
        snapshots = snapshots.filter { $0.key > newOldest }
        snapshots[newOldest] = props
    }
}
