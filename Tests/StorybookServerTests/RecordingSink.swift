import PropsCatalog
@testable import StorybookServer
import Synchronization
@testable import StorybookTransport

/// Collects what the hub sends, per connection, parsed back into JSON.
final class RecordingSink: MessageSink {
    private let messages = Mutex<[(ConnectionID, JSONValue, String?)]>([])

    func send(_ text: [UInt8], to connections: [ConnectionID], coalescingKey: String?) {
        let json = try! JSONParser.parse(text)
        messages.withLock { list in
            for connection in connections { list.append((connection, json, coalescingKey)) }
        }
    }

    /// Every message sent to `connection`, oldest first.
    func received(by connection: ConnectionID) -> [JSONValue] {
        messages.withLock { $0.filter { $0.0 == connection }.map(\.1) }
    }

    /// The coalescing key of every message sent to `connection`, nil where there was none.
    func coalescingKeys(for connection: ConnectionID) -> [String?] {
        messages.withLock { $0.filter { $0.0 == connection }.map(\.2) }
    }

    /// The `type` of every message sent to `connection`.
    func types(for connection: ConnectionID) -> [String] {
        received(by: connection).compactMap { $0["type"]?.stringValue }
    }

    func clear() {
        messages.withLock { $0.removeAll() }
    }
}
