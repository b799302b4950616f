import DemoCatalog
import Foundation
import Logging
import PropsCatalog
@testable import StorybookServer
import Testing

/// One server per state directory: a second one would rename its compacted journal over the file the
/// first goes on appending to, and the first one's later changes would be lost.
@Suite struct StateDirectoryLockTests {
    let catalog = try! DemoCatalog.make()
    let temporary = TemporaryDirectory(prefix: "state-lock-")
    var directory: URL { temporary.url }
    let logger = Logger(label: "test")

    private func journalBytes() throws -> Data {
        try Data(contentsOf: directory.appendingPathComponent(Journal.fileName))
    }

    @Test func aSecondJournalOnTheDirectoryIsRefusedAndTouchesNothing() throws {
        let (journal, _) = try Journal.open(directory: directory, catalog: catalog, logger: logger)
        defer { journal.close() }
        let before = try journalBytes()
        #expect {
            _ = try Journal.open(directory: directory, catalog: catalog, logger: logger)
        } throws: { error in
            "\(error)" == "the state directory \(directory.path) is in use by another storybook server (process \(getpid())): "
                + "stop it, choose another with --state-dir, or run with --no-persist"
        }
        #expect(try journalBytes() == before)
        #expect(!FileManager.default.fileExists(atPath: directory.appendingPathComponent(Journal.fileName + ".tmp").path))
    }

    @Test func theDirectoryIsFreeAgainOnceTheJournalIsClosed() throws {
        let (first, _) = try Journal.open(directory: directory, catalog: catalog, logger: logger)
        first.close()
        let (second, _) = try Journal.open(directory: directory, catalog: catalog, logger: logger)
        second.close()
    }
}
