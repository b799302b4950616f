import Foundation
import Logging
import PropsCatalog

/// Rebuilds story sessions from journal records. What cannot be restored (a story that left the
/// catalog, props that no longer decode, a broken chain of patches, damaged lines) is written to
/// `set-aside/` beside the journal and reported, never silently dropped.
struct JournalRestorer {
    let catalog: Catalog
    let directory: URL
    let logger: Logger

    func restore(_ reader: JournalReader) -> [String: StorySession] {
        if let torn = reader.tornTail {
            logger.warning("journal: the last record was torn (\(torn.count) bytes, a write cut short); skipped, it was never acknowledged")
        }
        if !reader.damagedLines.isEmpty {
            let file = setAside(reader.damagedLines, name: "damaged")
            logger.warning("journal: \(reader.damagedLines.count) damaged lines set aside in \(file)")
        }
        var blocks: [String: [(record: JournalRecord, line: ArraySlice<UInt8>)]] = [:]
        var order: [String] = []
        for item in reader.records {
            if blocks[item.record.story] == nil { order.append(item.record.story) }
            blocks[item.record.story, default: []].append(item)
        }
        var sessions: [String: StorySession] = [:]
        for storyID in order {
            let items = blocks[storyID]!
            guard let story = catalog.story(id: storyID) else {
                let file = setAside(items.map(\.line), name: storyID)
                logger.warning("journal: story '\(storyID)' is no longer in the catalog; its \(items.count) records are set aside in \(file)")
                continue
            }
            do {
                sessions[storyID] = try StorySession(story: story, restoring: try versions(items.map(\.record)))
            } catch {
                let file = setAside(items.map(\.line), name: storyID)
                logger.warning("journal: story '\(storyID)' cannot be restored (\(error)); it starts from its registered variant and its \(items.count) records are set aside in \(file)")
            }
        }
        return sessions
    }

    /// Full props for every record: a snapshot starts a chain, patches continue it.
    private func versions(_ records: [JournalRecord]) throws(RestoreError) -> [(entry: HistoryEntry, props: JSONValue)] {
        var result: [(entry: HistoryEntry, props: JSONValue)] = []
        for record in records {
            switch record.content {
            case .props(let props):
                if let last = result.last, record.entry.version != last.entry.version + 1 {
                    // A later block of the same story (appended after a compaction elsewhere): start over from it.
                    guard record.entry.version > last.entry.version else {
                        throw RestoreError(version: record.entry.version, reason: "versions go backwards")
                    }
                    result.removeAll()
                }
                result.append((record.entry, props))
            case .patch(let patch):
                guard let last = result.last else {
                    throw RestoreError(version: record.entry.version, reason: "a patch with no version before it")
                }
                guard record.entry.version == last.entry.version + 1 else {
                    throw RestoreError(version: record.entry.version, reason: "expected version \(last.entry.version + 1)")
                }
                do {
                    result.append((record.entry, try patch.apply(to: last.props)))
                } catch {
                    throw RestoreError(version: record.entry.version, reason: "its patch does not apply: \(error)")
                }
            }
        }
        return result
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
