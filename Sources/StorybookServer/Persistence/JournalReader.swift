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

    init(bytes: [UInt8]) {
        var start = 0
        while start < bytes.count {
            guard let newline = bytes[start...].firstIndex(of: 0x0A) else {
                tornTail = bytes[start...]
                break
            }
            let line = bytes[start..<newline]
            let isLast = newline == bytes.count - 1
            if let json = try? JSONParser.parse(line), let record = JournalRecord(json: json) {
                records.append((record, line))
            } else if isLast {
                tornTail = line
            } else if !line.isEmpty {
                damagedLines.append(line)
            }
            start = newline + 1
        }
    }
}
