import Synchronization
@testable import StorybookServer
import Testing
@testable import StorybookTransport

/// The loop thread's immediate answers over a real socket: written from the request's own callback,
/// they must be the same bytes as the ordinary answer and keep the connection alive.
@Suite("Transport: immediate answers over a socket")
struct ImmediateAnswerTransportTests {
    @Test func anImmediateAnswerIsTheSameBytesAsAnOrdinaryOne() throws {
        try withImmediateTransport { port, delegate in
            let socket = try TestSocket(port: port)
            try socket.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            let slow = try socket.readHTTPResponse()
            try socket.write("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
            let fast = try socket.readHTTPResponse()
            #expect(fast.head == slow.head)
            #expect(fast.body == slow.body)
            #expect(fast.head == "HTTP/1.1 200 OK\r\nserver: storybook\r\nContent-Type: text/plain; charset=utf-8\r\n"
                + "ETag: \"v1\"\r\nCache-Control: no-cache\r\ncontent-length: 5\r\n\r\n")
            #expect(fast.text == "hello")

            try socket.write("HEAD /fast HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try socket.readHTTPResponse(bodyExpected: false)
            #expect(head.head == fast.head)
            try socket.write("GET /fast HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"v1\"\r\n\r\n")
            let notModified = try socket.readHTTPResponse()
            #expect(notModified.head == "HTTP/1.1 304 Not Modified\r\nserver: storybook\r\nETag: \"v1\"\r\nCache-Control: no-cache\r\n\r\n")
            try socket.write("GET /slow HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try socket.readHTTPResponse().head == slow.head, "still the same connection, still in step")
            #expect(delegate.slowRequests == 2)
        }
    }

    @Test func theImmediatePathReadsTheQueryAndHeadersFromLws() throws {
        try withImmediateTransport { port, delegate in
            let socket = try TestSocket(port: port)
            try socket.write("GET /fast?a=1&b=x+y HTTP/1.1\r\nHost: x\r\nCookie: c=d\r\nAuthorization: Bearer t\r\n\r\n")
            #expect(try socket.readHTTPResponse().status == 200)
            let seen = try #require(delegate.seen.first)
            #expect(seen.query == [QueryItem(name: "a", value: "1"), QueryItem(name: "b", value: "x y")])
            #expect(seen.headers == ["Bearer t", "c=d", nil])
        }
    }

    @Test func largeAnswersAndRequestsWithABodyTakeTheOrdinaryPath() throws {
        try withImmediateTransport { port, delegate in
            let socket = try TestSocket(port: port)
            try socket.write("GET /fast-large HTTP/1.1\r\nHost: x\r\n\r\n")
            let large = try socket.readHTTPResponse()
            #expect(large.body == ImmediateTestDelegate.largeBody)
            try socket.write("GET /fast HTTP/1.1\r\nHost: x\r\nContent-Length: 3\r\n\r\nabc")
            let afterBody = try socket.readHTTPResponse()
            #expect(afterBody.text == "hello")
            try socket.write("GET /fast HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try socket.readHTTPResponse().text == "hello")
            #expect(delegate.seen.count == 3)
            #expect(delegate.slowRequests == 0)
        }
    }

    @Test func http10GetsItsVersionAndTheConnectionCloses() throws {
        try withImmediateTransport { port, _ in
            let socket = try TestSocket(port: port)
            try socket.write("GET /fast HTTP/1.0\r\nHost: x\r\n\r\n")
            let response = try socket.readHTTPResponse()
            #expect(response.statusLine == "HTTP/1.0 200 OK")
            #expect(response.text == "hello")
            #expect(throws: TestSocketError.self) { _ = try socket.readHTTPResponse() }
        }
    }
}

/// Answers `/fast` and `/fast-large` immediately and `/slow` through `didReceive`, with the same
/// response as `/fast`; records what the immediate path saw.
final class ImmediateTestDelegate: TransportDelegate {
    struct Seen: Sendable {
        var query: [QueryItem]
        /// authorization, cookie, if-none-match
        var headers: [String?]
    }

    static let response = HTTPResponse(
        status: 200,
        headers: [("Content-Type", "text/plain; charset=utf-8"), ("ETag", "\"v1\""), ("Cache-Control", "no-cache")],
        body: Array("hello".utf8)
    )
    static let notModified = HTTPResponse(status: 304, headers: [("ETag", "\"v1\""), ("Cache-Control", "no-cache")])
    static let largeBody = (0..<40_000).map { UInt8(truncatingIfNeeded: $0) }

    private let state = Mutex<(seen: [Seen], slowRequests: Int)>(([], 0))
    var seen: [Seen] { state.withLock { $0.seen } }
    var slowRequests: Int { state.withLock { $0.slowRequests } }

    func transport(_ transport: Transport, immediateResponseTo request: RequestHead) -> PreparedResponse? {
        guard request.path.hasPrefix("/fast") else { return nil }
        let headers = [RequestHeader.authorization, .cookie, .ifNoneMatch].map(request.value(of:))
        state.withLock { $0.seen.append(Seen(query: request.queryItems, headers: headers)) }
        if request.path == "/fast-large" {
            return PreparedResponse(HTTPResponse(status: 200, body: Self.largeBody))
        }
        return PreparedResponse(request.value(of: .ifNoneMatch) == "\"v1\"" ? Self.notModified : Self.response)
    }

    func transport(_ transport: Transport, didReceive request: HTTPRequest, id: ConnectionID) {
        state.withLock { $0.slowRequests += 1 }
        transport.respond(to: id, with: Self.response)
    }

    func transport(_ transport: Transport, shouldAccept upgrade: UpgradeRequest) -> UpgradeDecision { .accept }
    func transport(_ transport: Transport, didOpen id: ConnectionID, upgrade: UpgradeRequest) {}
    func transport(_ transport: Transport, didReceiveMessage bytes: [UInt8], from id: ConnectionID) {}
    func transport(_ transport: Transport, didClose id: ConnectionID) {}
}

private func withImmediateTransport(_ body: (Int, ImmediateTestDelegate) throws -> Void) throws {
    let delegate = ImmediateTestDelegate()
    let transport = Transport(configuration: TransportConfiguration(port: 0), delegate: delegate)
    let port = try transport.start()
    defer { transport.shutdown() }
    try body(port, delegate)
}
