#if canImport(Darwin)
// Apple platforms only: compiled there, not built or tested on this project's Linux machines.
import Foundation
import Synchronization

/// The Apple-platform connection: `URLSessionWebSocketTask`, which needs no C library.
final class URLSessionClientConnection: ClientConnection {
    private let events: @Sendable (ConnectionEvent) -> Void
    private let session = URLSession(configuration: .default)
    private let current = Mutex<(task: URLSessionWebSocketTask?, attempt: UInt64)>((nil, 0))

    init(events: @escaping @Sendable (ConnectionEvent) -> Void) {
        self.events = events
    }

    func start() {}

    func connect(to url: URL) {
        var request = URLRequest(url: url)
        request.setValue("storybook.v1", forHTTPHeaderField: "Sec-WebSocket-Protocol")
        let task = session.webSocketTask(with: request)
        let attempt = current.withLock { current -> UInt64 in
            current.task?.cancel(with: .normalClosure, reason: nil)
            current.attempt += 1
            current.task = task
            return current.attempt
        }
        task.resume()
        receive(on: task, attempt: attempt, first: true)
    }

    private func receive(on task: URLSessionWebSocketTask, attempt: UInt64, first: Bool) {
        task.receive { [weak self] result in
            guard let self, self.current.withLock({ $0.attempt == attempt }) else { return }
            switch result {
            case .success(let message):
                if first { self.events(.opened) }  // the hello arrived: the handshake is done
                if case .string(let text) = message { self.events(.message(Array(text.utf8))) }
                if case .data(let data) = message { self.events(.message(Array(data))) }
                self.receive(on: task, attempt: attempt, first: false)
            case .failure(let error):
                self.events(.closed(reason: error.localizedDescription))
            }
        }
    }

    func send(_ text: [UInt8]) {
        guard let task = current.withLock({ $0.task }) else { return }
        task.send(.string(String(decoding: text, as: UTF8.self))) { _ in }
    }

    func stop() {
        current.withLock { current in
            current.task?.cancel(with: .normalClosure, reason: nil)
            current.task = nil
            current.attempt += 1
        }
        session.invalidateAndCancel()
    }
}

/// The connection of this platform.
func makeConnection(configuration: StorybookClient.Configuration, events: @escaping @Sendable (ConnectionEvent) -> Void) -> any ClientConnection {
    URLSessionClientConnection(events: events)
}
#endif
