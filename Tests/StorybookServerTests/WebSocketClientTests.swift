import DemoCatalog
import Foundation
import PropsCatalog
import StorybookServer
import Synchronization
import Testing
@testable import StorybookTransport

/// The libwebsockets client loop (what `StorybookClient` uses on Linux) against a live server on port 0.
@Suite struct WebSocketClientTests {
    /// Collects a client's events for the test to wait on.
    final class Events: Sendable {
        let received = Mutex<[WebSocketClientEvent]>([])

        func add(_ event: WebSocketClientEvent) { received.withLock { $0.append(event) } }

        /// Waits until `predicate` holds; checks once more after the deadline, since a test run in
        /// parallel with all the others may get no thread for seconds.
        func wait(for predicate: ([WebSocketClientEvent]) -> Bool, seconds: Double = 30) async -> Bool {
            let deadline = Date().addingTimeInterval(seconds)
            while true {
                if received.withLock({ predicate($0) }) { return true }
                if Date() >= deadline { return false }
                try? await Task.sleep(for: .milliseconds(10))
            }
        }

        func messages() -> [JSONValue] {
            Self.messages(in: received.withLock { $0 })
        }

        static func messages(in events: [WebSocketClientEvent]) -> [JSONValue] {
            events.compactMap { event in
                guard case .message(_, let bytes) = event else { return nil }
                return try? JSONParser.parse(bytes)
            }
        }
    }

    @Test func connectsSendsReceivesAndReportsClosing() async throws {
        let storybook = try Storybook(catalog: try DemoCatalog.make(), configuration: ServerConfiguration(port: 0))
        let port = try storybook.start()
        defer { storybook.stop() }
        let events = Events()
        let client = WebSocketClient { events.add($0) }
        try client.start()
        defer { client.shutdown() }

        let attempt = client.connect(to: WebSocketClientTarget(host: "127.0.0.1", port: port, path: "/ws", subprotocol: "storybook.v1"))
        #expect(await events.wait { $0.contains(.opened(attempt: attempt)) })
        client.send(Array(#"{"type": "subscribe", "story": "profile-user-profile--default"}"#.utf8))
        #expect(await events.wait { Events.messages(in: $0).contains { $0["type"] == "state" } })
        #expect(events.messages().first?["type"] == "hello")

        storybook.stop()
        #expect(await events.wait { $0.contains { if case .closed(attempt, _) = $0 { true } else { false } } })
    }

    @Test func anAttemptThatCannotConnectIsReportedClosed() async throws {
        let events = Events()
        let client = WebSocketClient { events.add($0) }
        try client.start()
        defer { client.shutdown() }
        // A port nothing listens on: bind one, note it, close it.
        let storybook = try Storybook(catalog: try DemoCatalog.make(), configuration: ServerConfiguration(port: 0))
        let port = try storybook.start()
        storybook.stop()
        let attempt = client.connect(to: WebSocketClientTarget(host: "127.0.0.1", port: port, path: "/ws"))
        #expect(await events.wait { $0.contains { if case .closed(attempt, _) = $0 { true } else { false } } })
        #expect(!events.received.withLock { $0.contains(.opened(attempt: attempt)) })
    }
}
