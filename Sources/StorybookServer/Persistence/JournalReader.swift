import PropsCatalog

/// Splits a journal's bytes into records, telling apart a torn last line (a write cut short by a
/// crash, never acknowledged) from damaged lines.
///
/// Every record is written whole with its newline in one append (`JournalRecord.line`), and a
/// newline occurs nowhere else in a record, so only a last line *without* its newline can be a torn
/// write. A line that ends with its newline but is not a record is damage wherever it is, the last
/// line included: it may have been acknowledged.
struct JournalReader {
    /// Records in file order, with the raw line each came from.
    private(set) var records: [(record: JournalRecord, line: ArraySlice<UInt8>)] = []
    /// Whole lines (newline included in the file) that are not records.
    private(set) var damagedLines: [ArraySlice<UInt8>] = []
    /// The bytes after the last newline: a write cut short, never acknowledged.
    private(set) var tornTail: ArraySlice<UInt8>?
    /// The byte count of the file up to and including its last whole line: where the next record goes.
    private(set) var wholeLength = 0
    /// The story of the last whole line (ignoring empty ones) when it is damaged and its version
    /// cannot be read: the story it names, or else that of the last record.
    private var unnumberedEnd: String?

    /// For damaged lines that still name their story and version: the highest version per story, so
    /// that numbering never reuses a version that was written (and so perhaps acknowledged). A damaged
    /// last line whose version cannot be read counts as one version past the last record of its story
    /// (or of any damaged line before it that shows one).
    var damagedVersions: [String: Int] {
        var versions: [String: Int] = [:]
        for line in damagedLines {
            let text = String(decoding: line, as: UTF8.self)
            guard let story = Self.story(in: text), let version = Self.version(in: text) else { continue }
            versions[story] = max(versions[story] ?? 0, version)
        }
        if let story = unnumberedEnd {
            let recorded = records.lazy.filter { $0.record.story == story }.map(\.record.entry.version).max() ?? 0
            versions[story] = max(versions[story] ?? 0, recorded) + 1
        }
        return versions
    }

    private static func story(in text: String) -> String? {
        value(after: #""story":""#, in: text, while: { $0 != "\"" })
    }

    private static func version(in text: String) -> Int? {
        value(after: #""version":"#, in: text, while: \.isNumber).flatMap { Int($0) }
    }

    private static func value(after marker: String, in text: String, while accepts: (Character) -> Bool) -> String? {
        guard let range = text.range(of: marker) else { return nil }
        let value = text[range.upperBound...].prefix(while: accepts)
        return value.isEmpty ? nil : String(value)
    }

    private static let recordStart = Array(#"{"at":""#.utf8)

    init(bytes: [UInt8]) {
        var start = 0
        var lastDamaged: ArraySlice<UInt8>?
        while start < bytes.count {
            guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
                tornTail = bytes[start...]
                break
            }
            let line = bytes[start..<newline]
            if let record = Self.record(line) {
                records.append((record, line))
                lastDamaged = nil
            } else if let (fragment, record, rest) = Self.salvage(line) {
                // A fragment of a failed write with a whole record glued after it (journals written
                // before failed appends were truncated): the record stands, the fragment is damaged.
                damagedLines.append(fragment)
                records.append((record, rest))
                lastDamaged = nil
            } else if !line.isEmpty {
                damagedLines.append(line)
                lastDamaged = line
            }
            start = newline + 1
            wholeLength = start
        }
        if let lastDamaged {
            let text = String(decoding: lastDamaged, as: UTF8.self)
            if Self.version(in: text) == nil {
                unnumberedEnd = Self.story(in: text) ?? records.last?.record.story
            }
        }
    }

    private static func record(_ line: ArraySlice<UInt8>) -> JournalRecord? {
        guard let json = try? JSONParser.parse(line) else { return nil }
        return JournalRecord(json: json)
    }

    /// The last record start inside a damaged line, when what follows it is a whole record.
    private static func salvage(_ line: ArraySlice<UInt8>) -> (ArraySlice<UInt8>, JournalRecord, ArraySlice<UInt8>)? {
        var index = line.endIndex - recordStart.count
        while index > line.startIndex {
            if line[index..<index + recordStart.count].elementsEqual(recordStart) {
                let rest = line[index...]
                guard let record = record(rest) else { return nil }
                return (line[..<index], record, rest)
            }
            index -= 1
        }
        return nil
    }
}
