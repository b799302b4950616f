import PropsCatalog

/// Splits a journal's bytes into records, telling apart a torn last line (a write cut short by a
/// crash, never acknowledged) from damaged lines inside the file.
struct JournalReader {
    /// Records in file order, with the raw line each came from.
    private(set) var records: [(record: JournalRecord, line: ArraySlice<UInt8>)] = []
    /// Lines in the middle of the file that are not records.
    private(set) var damagedLines: [ArraySlice<UInt8>] = []
    /// The bytes of a last line without its newline, or that does not parse.
    private(set) var tornTail: ArraySlice<UInt8>?
    /// The byte count of the file up to and including its last whole line: where the next record goes.
    private(set) var wholeLength = 0

    /// For damaged lines that still name their story and version: the highest version per story, so
    /// that numbering never reuses a version that was written (and so perhaps acknowledged).
    var damagedVersions: [String: Int] {
        var versions: [String: Int] = [:]
        for line in damagedLines {
            let text = String(decoding: line, as: UTF8.self)
            guard let story = Self.value(after: #""story":""#, in: text, while: { $0 != "\"" }),
                  let version = Self.value(after: #""version":"#, in: text, while: \.isNumber).flatMap({ Int($0) }) else { continue }
            versions[story] = max(versions[story] ?? 0, version)
        }
        return versions
    }

    private static func value(after marker: String, in text: String, while accepts: (Character) -> Bool) -> String? {
        guard let range = text.range(of: marker) else { return nil }
        let value = text[range.upperBound...].prefix(while: accepts)
        return value.isEmpty ? nil : String(value)
    }

    private static let recordStart = Array(#"{"at":""#.utf8)

    init(bytes: [UInt8]) {
        var start = 0
        while start < bytes.count {
            guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
                tornTail = bytes[start...]
                break
            }
            let line = bytes[start..<newline]
            let isLast = newline == bytes.count - 1
            if let record = Self.record(line) {
                records.append((record, line))
            } else if let (fragment, record, rest) = Self.salvage(line) {
                // A fragment of a failed write with a whole record glued after it (journals written
                // before failed appends were truncated): the record stands, the fragment is damaged.
                damagedLines.append(fragment)
                records.append((record, rest))
            } else if isLast {
                tornTail = line
                break
            } else if !line.isEmpty {
                damagedLines.append(line)
            }
            start = newline + 1
            wholeLength = start
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
