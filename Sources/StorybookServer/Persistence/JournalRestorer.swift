import Foundation
import Logging
import PropsCatalog

/// Rebuilds story sessions from journal records. What cannot be restored (a story that left the
/// catalog, props that no longer decode, a broken chain of patches, damaged lines) is written to
/// `set-aside/` beside the journal and reported, never silently dropped.
///
/// A story whose chain breaks (a damaged or missing record, a patch that does not apply, props that
/// no longer decode) is restored up to the break; the records that depend on the broken one are set
/// aside, and its numbering goes on after the highest version seen, so no later version reuses a
/// number that was once acknowledged. The versions in between are recorded as `seek`s back to the
/// restored props (source `journal`).
struct JournalRestorer {
    let catalog: Catalog
    let directory: URL
    let logger: Logger

    typealias Item = (record: JournalRecord, line: ArraySlice<UInt8>)
    typealias Version = (entry: HistoryEntry, props: JSONValue)

    func restore(_ reader: JournalReader) -> [String: StorySession] {
        if let torn = reader.tornTail {
            logger.warning("journal: the last line is torn (\(torn.count) bytes without a newline, a write cut short); cut off, it was never acknowledged")
        }
        if !reader.damagedLines.isEmpty {
            let file = setAside(reader.damagedLines, name: "damaged")
            logger.warning("journal: \(reader.damagedLines.count) damaged lines set aside in \(file)")
        }
        var blocks: [String: [Item]] = [:]
        var order: [String] = []
        for item in reader.records {
            if blocks[item.record.story] == nil { order.append(item.record.story) }
            blocks[item.record.story, default: []].append(item)
        }
        let damagedVersions = reader.damagedVersions
        // A story whose only records are damaged still keeps its numbering.
        order += damagedVersions.keys.filter { blocks[$0] == nil && catalog.story(id: $0) != nil }.sorted()
        var sessions: [String: StorySession] = [:]
        for storyID in order {
            let items = blocks[storyID] ?? []
            guard let story = catalog.story(id: storyID) else {
                let file = setAside(items.map(\.line), name: storyID)
                logger.warning("journal: story '\(storyID)' is no longer in the catalog; its \(items.count) records are set aside in \(file)")
                continue
            }
            sessions[storyID] = restore(story, items, highestDamaged: damagedVersions[storyID] ?? 0)
        }
        return sessions
    }

    /// One story: its longest sound chain of versions, numbered on after the highest version seen.
    private func restore(_ story: Catalog.Story, _ items: [Item], highestDamaged: Int) -> StorySession? {
        let highest = max(items.map(\.record.entry.version).max() ?? 1, highestDamaged)
        var (chain, broken) = Self.chain(items)
        var brokenAt = broken.first.map(\.record.entry.version)
        var reason = broken.isEmpty ? nil : "the record of version \(brokenAt!) does not follow version \(chain.last?.entry.version ?? 0)"
        while true {
            do {
                let session = try StorySession(story: story, restoring: Self.numbered(chain, story: story, through: highest))
                if !broken.isEmpty {
                    let file = setAside(broken.map(\.line), name: story.id)
                    logger.warning("journal: story '\(story.id)' is restored up to version \(chain.last?.entry.version ?? 1) (\(reason ?? "")); the \(broken.count) records that depend on version \(brokenAt ?? 0) are set aside in \(file); numbering goes on after version \(highest)")
                } else if highest > chain.last?.entry.version ?? 1 {
                    logger.warning("journal: story '\(story.id)' is restored up to version \(chain.last?.entry.version ?? 1); damaged lines count up to version \(highest), numbering goes on after it")
                }
                return session
            } catch {
                // Props that no longer decode: keep what comes before, set aside the rest.
                let kept = chain.filter { $0.entry.version < error.version }
                guard kept.count < chain.count else { break }
                broken = items.filter { $0.record.entry.version >= error.version }
                brokenAt = error.version
                reason = error.reason
                chain = kept
            }
        }
        let file = setAside(items.map(\.line), name: story.id)
        logger.warning("journal: story '\(story.id)' cannot be restored; it starts from its registered variant and its \(items.count) records are set aside in \(file)")
        return nil
    }

    /// The longest chain of versions from the records in order: a snapshot starts (or restarts) a chain,
    /// each patch must continue it and apply. Records after a break that depend on it are returned as `broken`.
    static func chain(_ items: [Item]) -> (chain: [Version], broken: [Item]) {
        var chain: [Version] = []
        var broken: [Item] = []
        var isBroken = false
        for item in items {
            let record = item.record
            switch record.content {
            case .props(let props):
                // A snapshot is self-contained: a later block of the story (appended after a compaction
                // could not run) starts over from it, and it ends a break.
                if let last = chain.last, !isBroken, record.entry.version == last.entry.version + 1 {
                    chain.append((record.entry, props))
                } else {
                    chain = [(record.entry, props)]
                    isBroken = false
                }
            case .patch(let patch):
                guard !isBroken, let last = chain.last, record.entry.version == last.entry.version + 1,
                      let props = try? patch.replay(on: last.props) else {
                    isBroken = true
                    broken.append(item)
                    continue
                }
                chain.append((record.entry, props))
            }
        }
        return (chain, broken)
    }

    /// `chain` (or the registered variant when it is empty) followed by a `seek` back to its last props for
    /// every version up to `highest` (at most a history's capacity of them: older ones would be dropped anyway).
    static func numbered(_ chain: [Version], story: Catalog.Story, through highest: Int) -> [Version] {
        var versions = chain
        if versions.isEmpty {
            versions = [(HistoryEntry(version: 1, at: Date(), kind: .registered, source: .registration, ref: nil, command: nil,
                                      patch: JSONPatch(operations: [])), story.props)]
        }
        let last = versions.last!
        guard highest > last.entry.version else { return versions }
        let first = max(last.entry.version + 1, highest - StoryHistory.defaultCapacity + 1)
        if first > last.entry.version + 1 { versions = [] }
        let now = Date()
        for version in first...highest {
            versions.append((HistoryEntry(version: version, at: now, kind: .seek, source: ChangeSource("journal"), ref: nil, command: nil,
                                          patch: JSONPatch(operations: [])), last.props))
        }
        return versions
    }

    private func setAside(_ lines: [ArraySlice<UInt8>], name: String) -> String {
        let folder = directory.appendingPathComponent("set-aside")
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        let stamp = ISO8601.string(from: Date()).replacingOccurrences(of: ":", with: "-")
        let file = folder.appendingPathComponent("\(Slug.make(name))-\(stamp).jsonl")
        var bytes: [UInt8] = []
        for line in lines { bytes += line + [0x0A] }
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(bytes))
        return file.path
    }
}
