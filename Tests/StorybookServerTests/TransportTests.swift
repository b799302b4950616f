#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif
import Synchronization
import Testing
@testable import StorybookServer
@testable import StorybookTransport

// MARK: - Pure parts, no sockets

@Suite("Transport: outbound queue")
struct OutboundQueueTests {
    @Test func keylessMessagesQueueInOrder() {
        var queue = OutboundQueue<String, String>(capacity: 4)
        #expect(queue.enqueue("a") == .appended)
        #expect(queue.enqueue("b") == .appended)
        #expect(queue.dequeue() == "a")
        #expect(queue.dequeue() == "b")
        #expect(queue.dequeue() == nil)
        #expect(queue.isEmpty)
    }

    @Test func aKeyedMessageReplacesItsWaitingPredecessorInPlace() {
        var queue = OutboundQueue<String, String>(capacity: 8)
        _ = queue.enqueue("state 1 of x", key: "x")
        _ = queue.enqueue("hello")
        _ = queue.enqueue("state 1 of y", key: "y")
        #expect(queue.enqueue("state 2 of x", key: "x") == .replaced)
        #expect(queue.enqueue("state 3 of x", key: "x") == .replaced)
        #expect(queue.count == 3)
        #expect(drain(&queue) == ["state 3 of x", "hello", "state 1 of y"])
    }

    @Test func aWrittenMessageCanNoLongerBeReplaced() {
        var queue = OutboundQueue<String, String>(capacity: 8)
        _ = queue.enqueue("v1", key: "k")
        #expect(queue.dequeue() == "v1")
        #expect(queue.enqueue("v2", key: "k") == .appended)
        #expect(queue.enqueue("v3", key: "k") == .replaced)
        #expect(drain(&queue) == ["v3"])
    }

    /// A dependent message (a state delta) that finds a message of its key waiting is not queued and
    /// breaks the key's chain: later dependent messages of that key are dropped, until an independent
    /// one comes; other keys are not concerned. The reader never gets a delta without its base.
    @Test func aDependentMessageFindingItsKeyWaitingBreaksTheChainUntilAnIndependentOne() {
        var queue = OutboundQueue<String, String>(capacity: 8)
        _ = queue.enqueue("whole 1", key: "x")
        _ = queue.enqueue("whole 1 of y", key: "y")
        #expect(queue.enqueue("delta 2", key: "x", dependsOnPrevious: true) == .chainBroken)
        #expect(queue.enqueue("delta 3", key: "x", dependsOnPrevious: true) == .dropped)
        #expect(queue.dequeue() == "whole 1")
        #expect(queue.enqueue("delta 4", key: "x", dependsOnPrevious: true) == .dropped)
        #expect(queue.enqueue("delta 2 of y", key: "y", dependsOnPrevious: true) == .chainBroken)
        #expect(queue.enqueue("whole 4", key: "x") == .appended)
        #expect(queue.enqueue("delta 5", key: "x", dependsOnPrevious: true) == .chainBroken)
        #expect(queue.enqueue("whole 5", key: "x") == .replaced)
        #expect(drain(&queue) == ["whole 1 of y", "whole 5"])
        #expect(queue.enqueue("delta 6", key: "x", dependsOnPrevious: true) == .appended)
        #expect(queue.enqueue("delta 7", key: "x", dependsOnPrevious: true) == .chainBroken)
        #expect(drain(&queue) == ["delta 6"])
    }

    @Test func keylessMessagesOverflowAtCapacityButReplacementsNeverDo() {
        var queue = OutboundQueue<Int, String>(capacity: 3)
        _ = queue.enqueue(0, key: "k")
        _ = queue.enqueue(1)
        _ = queue.enqueue(2)
        #expect(queue.enqueue(3) == .overflow)
        #expect(queue.enqueue(4, key: "other") == .overflow)
        #expect(queue.enqueue(5, key: "k") == .replaced)
        #expect(drain(&queue) == [5, 1, 2])
    }

    @Test func coalescingSurvivesCompactionOfALongQueue() {
        var queue = OutboundQueue<Int, String>(capacity: 1000)
        for value in 0..<200 { _ = queue.enqueue(value) }
        _ = queue.enqueue(-1, key: "late")
        for _ in 0..<150 { _ = queue.dequeue() }
        #expect(queue.enqueue(-2, key: "late") == .replaced)
        #expect(drain(&queue) == Array(150..<200) + [-2])
    }

    @Test func coalescingHoldsAcrossTheSwitchBetweenComparingAndIndexing() {
        let limit = OutboundQueue<Int, String>.linearSearchLimit
        var queue = OutboundQueue<Int, String>(capacity: 1000)
        _ = queue.enqueue(0, key: "early")
        #expect(!queue.isIndexed)
        #expect(queue.enqueue(1, key: "early") == .replaced)
        for value in 2..<(limit + 4) { _ = queue.enqueue(value) }
        #expect(queue.isIndexed)
        #expect(queue.enqueue(-1, key: "early") == .replaced)
        _ = queue.enqueue(100, key: "late")
        #expect(queue.enqueue(101, key: "late") == .replaced)
        #expect(drain(&queue) == [-1] + Array(2..<(limit + 4)) + [101])
        #expect(!queue.isIndexed)
        _ = queue.enqueue(7, key: "early")
        #expect(queue.enqueue(8, key: "early") == .replaced)
        #expect(queue.enqueue(9, key: "late") == .appended)
        #expect(drain(&queue) == [8, 9])
    }

    @Test func orderAndReplacementHoldWhenTheRingWrapsAndGrows() {
        var queue = OutboundQueue<Int, String>(capacity: 100)
        for value in 0..<3 { _ = queue.enqueue(value) }
        #expect(queue.dequeue() == 0)
        #expect(queue.dequeue() == 1)
        _ = queue.enqueue(3, key: "k")
        _ = queue.enqueue(4)  // the ring of 4 is full, its head in the middle
        #expect(queue.enqueue(5, key: "k") == .replaced)
        _ = queue.enqueue(6)  // grows while wrapped
        #expect(queue.enqueue(7, key: "k") == .replaced)
        #expect(drain(&queue) == [2, 7, 4, 6])
    }

    @Test func coalescingKeyStringsMapToOneNumberEach() {
        var table = CoalescingKey.Table()
        let a = table.key(for: "state:a")
        let b = table.key(for: "state:b")
        #expect(a != b)
        #expect(table.key(for: "state:" + "a") == a)
        #expect(table.key(for: "state:b") == b)
        #expect(table.count == 2)
    }

    @Test func removeAllForgetsKeys() {
        var queue = OutboundQueue<String, String>(capacity: 4)
        _ = queue.enqueue("a", key: "k")
        queue.removeAll()
        #expect(queue.isEmpty)
        #expect(queue.enqueue("b", key: "k") == .appended)
        #expect(drain(&queue) == ["b"])
    }

    private func drain<Message>(_ queue: inout OutboundQueue<Message, String>) -> [Message] {
        var messages: [Message] = []
        while let message = queue.dequeue() { messages.append(message) }
        return messages
    }
}

@Suite("Transport: message and body framing")
struct FramingTests {
    @Test func messagesAreReassembledFromPieces() {
        var assembler = MessageAssembler(limit: 10)
        #expect(assembler.append(Array("hel".utf8), isFinal: false, isBinary: false) == .partial)
        #expect(assembler.append(Array("lo".utf8), isFinal: true, isBinary: false) == .message(Array("hello".utf8)))
        #expect(assembler.append(Array("again".utf8), isFinal: true, isBinary: false) == .message(Array("again".utf8)))
    }

    @Test func theMessageLimitCountsTheReassembledTotal() {
        var assembler = MessageAssembler(limit: 10)
        #expect(assembler.append([UInt8](repeating: 1, count: 10), isFinal: true, isBinary: false) != .tooLarge)
        #expect(assembler.append([UInt8](repeating: 1, count: 6), isFinal: false, isBinary: false) == .partial)
        #expect(assembler.append([UInt8](repeating: 1, count: 5), isFinal: true, isBinary: false) == .tooLarge)
    }

    @Test func binaryMessagesAreRefused() {
        var assembler = MessageAssembler(limit: 10)
        #expect(assembler.append([0, 1], isFinal: true, isBinary: true) == .binary)
    }

    @Test func chunkedBodiesDecodeWhicheverWayTheBytesAreSplit() {
        let wire = Array("5;ext=1\r\nhello\r\n7\r\n, world\r\n0\r\nx-trailer: yes\r\n\r\n".utf8)
        for split in 0...wire.count {
            var decoder = ChunkedBodyDecoder(limit: 100)
            let first = decoder.decode(wire[..<split])
            let second = decoder.decode(wire[split...])
            if split == wire.count {
                #expect(first == .finished(consumed: wire.count))
            } else {
                #expect(first == .needMore)
                #expect(second == .finished(consumed: wire.count - split))
            }
            #expect(decoder.takeBody() == Array("hello, world".utf8))
        }
    }

    @Test func chunkedBodiesReportBytesAfterTheirEnd() {
        var decoder = ChunkedBodyDecoder(limit: 100)
        let wire = Array("1\r\na\r\n0\r\n\r\nGET / HTTP/1.1".utf8)
        #expect(decoder.decode(wire) == .finished(consumed: 11))
    }

    @Test func malformedOrOversizedChunkedBodiesAreRefused() {
        var malformed = ChunkedBodyDecoder(limit: 100)
        #expect(malformed.decode(Array("zz\r\n".utf8)) == .malformed)
        var missingCRLF = ChunkedBodyDecoder(limit: 100)
        #expect(missingCRLF.decode(Array("1\r\nab".utf8)) == .malformed)
        var oversized = ChunkedBodyDecoder(limit: 10)
        #expect(oversized.decode(Array("6\r\nabcdef\r\n".utf8)) == .needMore)
        #expect(oversized.decode(Array("5\r\n".utf8)) == .tooLarge)
        var huge = ChunkedBodyDecoder(limit: 1 << 20)
        #expect(huge.decode(Array("ffffffffffffffffffff\r\n".utf8)) == .tooLarge)
    }

    @Test func bodyFramingFollowsTheHeaders() {
        let limit = 100
        #expect(BodyFraming.of(method: .get, contentLength: nil, transferEncoding: nil, limit: limit) == .success(.none))
        #expect(BodyFraming.of(method: .post, contentLength: "0", transferEncoding: nil, limit: limit) == .success(.none))
        #expect(BodyFraming.of(method: .post, contentLength: " 42 ", transferEncoding: nil, limit: limit) == .success(.contentLength(42)))
        #expect(BodyFraming.of(method: .put, contentLength: "101", transferEncoding: nil, limit: limit) == .failure(.tooLarge(limit: 100)))
        #expect(BodyFraming.of(method: .post, contentLength: "-1", transferEncoding: nil, limit: limit) == .failure(.malformed("invalid Content-Length")))
        #expect(BodyFraming.of(method: .patch, contentLength: nil, transferEncoding: "Chunked", limit: limit) == .success(.chunked))
        #expect(BodyFraming.of(method: .post, contentLength: nil, transferEncoding: "gzip", limit: limit) == .failure(.unsupportedTransferEncoding))
        guard case .failure(.malformed) = BodyFraming.of(method: .post, contentLength: "3", transferEncoding: "chunked", limit: limit) else {
            Issue.record("Content-Length together with Transfer-Encoding must be refused")
            return
        }
        guard case .failure(.malformed) = BodyFraming.of(method: .get, contentLength: nil, transferEncoding: "chunked", limit: limit) else {
            Issue.record("a chunked GET must be refused")
            return
        }
    }

    @Test func theBodyCollectorEnforcesTheLimitOnWhatArrives() {
        var collector = RequestBodyCollector(framing: .contentLength(4), limit: 100)
        #expect(collector.consume(Array("ab".utf8)) == .needMore)
        #expect(collector.consume(Array("cd".utf8)) == .complete)
        #expect(collector.takeBody() == Array("abcd".utf8))

        var overflowing = RequestBodyCollector(framing: .contentLength(4), limit: 100)
        #expect(overflowing.consume(Array("abcde".utf8)) == .failed(.tooLarge(limit: 100)))

        var chunked = RequestBodyCollector(framing: .chunked, limit: 3)
        #expect(chunked.consume(Array("4\r\n".utf8)) == .failed(.tooLarge(limit: 3)))
    }
}

@Suite("Transport: small values")
struct TransportValueTests {
    @Test func theWatchdogFiresOnlyWithoutProgress() {
        var watchdog = WriteWatchdog()
        #expect(!watchdog.isStalled(inRound: 100, rounds: 5))
        watchdog.startWaiting(inRound: 10)
        watchdog.startWaiting(inRound: 13)
        #expect(!watchdog.isStalled(inRound: 14, rounds: 5))
        #expect(watchdog.isStalled(inRound: 15, rounds: 5))
        watchdog.madeProgress()
        #expect(!watchdog.isStalled(inRound: 50, rounds: 5))
    }

    @Test func theWatchdogWaitsAtLeastTheTimeoutWhereverTheWaitStarted() {
        #expect(WriteWatchdog.rounds(for: .seconds(10), interval: .seconds(1)) == 11)
        #expect(WriteWatchdog.rounds(for: .milliseconds(200), interval: .milliseconds(50)) == 5)
        #expect(WriteWatchdog.rounds(for: .milliseconds(250), interval: .milliseconds(100)) == 4)
    }

    @Test func hostsMapToLoopbackOnlyListeners() {
        #expect(ListenAddress(host: "127.0.0.1") == ListenAddress(interface: "127.0.0.1", ipv6: false))
        #expect(ListenAddress(host: "localhost") == ListenAddress(interface: "127.0.0.1", ipv6: false))
        #expect(ListenAddress(host: "0.0.0.0") == ListenAddress(interface: nil, ipv6: false))
        #expect(ListenAddress(host: "192.168.1.5") == ListenAddress(interface: "192.168.1.5", ipv6: false))
        #expect(ListenAddress(host: "::") == ListenAddress(interface: nil, ipv6: true))
        #expect(ListenAddress(host: "::1") == ListenAddress(interface: "::1", ipv6: true))
    }

    @Test func closeReasonsAreCutAtACharacterBoundary() {
        let frame = CloseFrame(code: 1008, reason: String(repeating: "é", count: 100))
        #expect(frame.reason.count == 122)
        #expect(String(decoding: frame.reason, as: UTF8.self) == String(repeating: "é", count: 61))
    }

    @Test func transportErrorsAreContractJSON() {
        let response = HTTPResponse.transportError(status: 413, code: "too-large", message: "a \"quoted\"\nline")
        #expect(response.status == 413)
        #expect(String(decoding: response.body, as: UTF8.self)
            == #"{"error":{"code":"too-large","message":"a \"quoted\"\nline"}}"#)
    }

    @Test func framingHeadersFromTheApplicationAreIgnored() {
        let response = HTTPResponse(status: 200, headers: [("Content-Length", "3"), ("X-A", "1"), ("connection", "close")])
        #expect(response.applicationHeaders.map(\.0) == ["X-A"])
    }
}

// MARK: - Through real sockets

@Suite("Transport: HTTP over a socket")
struct TransportHTTPTests {
    @Test func twoRequestsShareOneKeepAliveConnection() throws {
        try withTransport({ $0.extraHeaderNames = ["X-Request-ID"] }) { _, port, delegate in
            let socket = try TestSocket(port: port)
            try socket.write("GET /first?x=1&y=a+b HTTP/1.1\r\nHost: localhost\r\nX-Request-Id: 42\r\nIf-None-Match: \"v1\"\r\n\r\n")
            let first = try socket.readHTTPResponse()
            try socket.write("GET /second%20path HTTP/1.1\r\nHost: localhost\r\n\r\n")
            let second = try socket.readHTTPResponse()
            #expect(first.status == 200)
            #expect(first.text == "GET /first x=1 y=a b\n")
            #expect(second.text == "GET /second path\n")
            #expect(first.headers["x-connection"] == second.headers["x-connection"])
            #expect(first.headers["content-length"] == "\(first.body.count)")
            let headers = delegate.requests.first?.headers ?? [:]
            #expect(headers["host"] == "localhost")
            #expect(headers["if-none-match"] == "\"v1\"")
            #expect(headers["x-request-id"] == "42")
        }
    }

    @Test func aPostBodyIsEchoedAndTheConnectionStaysUsable() throws {
        try withTransport { _, port, _ in
            let socket = try TestSocket(port: port)
            try socket.write("POST /echo HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\nContent-Length: 11\r\n\r\n{\"a\":\"b c\"}")
            let response = try socket.readHTTPResponse()
            #expect(response.status == 200)
            #expect(response.text == "POST /echo\n{\"a\":\"b c\"}")
            try socket.write("HEAD /after HTTP/1.1\r\nHost: x\r\n\r\n")
            let head = try socket.readHTTPResponse(bodyExpected: false)
            #expect(head.status == 200)
            #expect(head.headers["content-length"] == "\("HEAD /after\n".utf8.count)")
            #expect(head.body.isEmpty)
        }
    }

    @Test func a304HasNoBodyAndNoLengthAndKeepsTheConnection() throws {
        try withTransport { _, port, _ in
            let socket = try TestSocket(port: port)
            try socket.write("GET /not-modified HTTP/1.1\r\nHost: x\r\nIf-None-Match: \"v1\"\r\n\r\n")
            let notModified = try socket.readHTTPResponse()
            #expect(notModified.status == 304)
            #expect(notModified.headers["content-length"] == nil)
            #expect(notModified.headers["etag"] == "\"v1\"")
            try socket.write("GET /next HTTP/1.1\r\nHost: x\r\n\r\n")
            #expect(try socket.readHTTPResponse().text == "GET /next\n")
        }
    }

    @Test func aChunkedBodyIsDecoded() throws {
        try withTransport { _, port, _ in
            let socket = try TestSocket(port: port)
            try socket.write("PUT /chunked HTTP/1.1\r\nHost: x\r\nTransfer-Encoding: chunked\r\n\r\n3\r\nabc\r\n2\r\nde\r\n0\r\n\r\n")
            let response = try socket.readHTTPResponse()
            #expect(response.text == "PUT /chunked\nabcde")
            #expect(response.headers["connection"] == "close")
        }
    }

    @Test func aBodyOverTheCapIsAnswered413BeforeItIsRead() throws {
        try withTransport({ $0.maxBodyBytes = 1000 }) { _, port, delegate in
            let socket = try TestSocket(port: port)
            try socket.write("POST /upload HTTP/1.1\r\nHost: x\r\nContent-Length: 2000000\r\n\r\n")
            let response = try socket.readHTTPResponse()
            #expect(response.status == 413)
            #expect(response.headers["content-type"] == "application/json; charset=utf-8")
            #expect(response.text.hasPrefix(#"{"error":{"code":"too-large","message":"#))
            #expect(response.headers["connection"] == "close")
            #expect(delegate.requests.isEmpty)
        }
    }

    @Test func anH2CUpgradeIsAnsweredAsHTTP11() throws {
        try withTransport { _, port, _ in
            let socket = try TestSocket(port: port)
            try socket.write("GET /h2 HTTP/1.1\r\nHost: x\r\nConnection: Upgrade, HTTP2-Settings\r\nUpgrade: h2c\r\nHTTP2-Settings: AAMAAABkAARAAAAAAAIAAAAA\r\n\r\n")
            let response = try socket.readHTTPResponse()
            #expect(response.statusLine.hasPrefix("HTTP/1.1 200"))
            #expect(response.text == "GET /h2\n")
        }
    }

    @Test func theLoopThreadLeavesProcessSignalsToTheApplication() throws {
        try withTransport { _, port, delegate in
            let socket = try TestSocket(port: port)
            try socket.write("GET / HTTP/1.1\r\nHost: x\r\n\r\n")
            _ = try socket.readHTTPResponse()
            #expect(delegate.signalsBlockedOnLoopThread == [true])
        }
    }

    @Test func startingTwiceOnOnePortFailsWithATypedError() throws {
        try withTransport { _, port, delegate in
            let second = Transport(configuration: TransportConfiguration(port: port), delegate: delegate)
            #expect(throws: TransportError.cannotListen(host: "127.0.0.1", port: port)) {
                _ = try second.start()
            }
            second.shutdown()
        }
    }
}

@Suite("Transport: WebSocket over a socket")
struct TransportWebSocketTests {
    @Test func aTextMessageMakesTheRoundTrip() throws {
        try withTransport { _, port, delegate in
            let socket = try TestSocket(port: port)
            let handshake = try socket.upgrade(protocols: ["storybook.v1"])
            #expect(handshake.status == 101)
            #expect(handshake.headers["sec-websocket-protocol"] == "storybook.v1")
            try socket.sendText("héllo")
            #expect(try socket.readFrame() == WebSocketFrame(opcode: 1, payload: Array("héllo".utf8)))
            // a message in three fragments comes back whole
            try socket.sendFrame(opcode: 1, fin: false, payload: Array("a".utf8))
            try socket.sendFrame(opcode: 0, fin: false, payload: Array("b".utf8))
            try socket.sendFrame(opcode: 0, fin: true, payload: Array("c".utf8))
            #expect(try socket.readFrame() == WebSocketFrame(opcode: 1, payload: Array("abc".utf8)))
            #expect(delegate.opened.count == 1)
        }
    }

    @Test func anUpgradeWithoutSubprotocolIsAcceptedToo() throws {
        try withTransport { _, port, _ in
            let socket = try TestSocket(port: port)
            let handshake = try socket.upgrade()
            #expect(handshake.status == 101)
            #expect(handshake.headers["sec-websocket-protocol"] == nil)
        }
    }

    @Test func upgradesElsewhereOrRefusedByTheDelegateGetHTTPAnswers() throws {
        try withTransport { _, port, _ in
            let wrongPath = try TestSocket(port: port).upgrade(path: "/elsewhere")
            #expect(wrongPath.status == 404)
            #expect(wrongPath.text.contains(#""code":"not-found""#))
            let refused = try TestSocket(port: port).upgrade(origin: "http://evil.example")
            #expect(refused.statusLine == "HTTP/1.1 403 Forbidden")
            #expect(refused.text == #"{"error":{"code":"forbidden","message":"origin"}}"#)
        }
    }

    @Test func anOversizedMessageClosesWith1009() throws {
        try withTransport({ $0.maxMessageBytes = 1000 }) { _, port, delegate in
            let socket = try TestSocket(port: port)
            _ = try socket.upgrade()
            try socket.sendText(String(repeating: "x", count: 1001))
            let close = try socket.readFrame()
            #expect(close.opcode == 8)
            #expect(close.closeCode == 1009)
            try socket.sendFrame(opcode: 8, fin: true, payload: close.payload)
            try waitUntil { delegate.closed.count == 1 }
        }
    }

    @Test func aBinaryMessageClosesWith1003() throws {
        try withTransport { _, port, _ in
            let socket = try TestSocket(port: port)
            _ = try socket.upgrade()
            try socket.sendFrame(opcode: 2, fin: true, payload: [1, 2, 3])
            #expect(try socket.readFrame().closeCode == 1003)
        }
    }

    @Test func aSilentClientIsPingedAndHungUpOnOnlyWhenItStopsAnswering() throws {
        try withTransport({ $0.pingInterval = .seconds(1); $0.hangupTimeout = .milliseconds(2500) }) { _, port, delegate in
            let socket = try TestSocket(port: port)
            _ = try socket.upgrade()
            let ping = try socket.readFrame(skippingPings: false)
            #expect(ping.opcode == 9)
            // Any sign of life restarts the clock: a pong now, then silence until the hang-up.
            try socket.sendFrame(opcode: 10, fin: true, payload: ping.payload)
            let answeredAt = ContinuousClock.now
            #expect(try socket.readFrame(skippingPings: false).opcode == 9)
            #expect(delegate.closed.isEmpty)
            try waitUntil(timeout: .seconds(5)) { delegate.closed.count == 1 }
            #expect(ContinuousClock.now - answeredAt >= .milliseconds(2400))
        }
    }

    @Test func anUnmaskedFrameClosesWith1002AndIsNotDelivered() throws {
        try withTransport { _, port, delegate in
            let socket = try TestSocket(port: port)
            _ = try socket.upgrade()
            try socket.write([0x81, 0x02] + Array("hi".utf8))
            // The first frame back is the close: "hi" was never delivered (the delegate echoes messages).
            let close = try socket.readFrame()
            #expect(close.closeCode == 1002)
            #expect(close.text.dropFirst(2) == "client frames must be masked")
            try waitUntil { delegate.closed.count == 1 }
        }
    }

    @Test func afterItsOwnCloseTheServerSendsNothingMoreAndEndsTheConnection() throws {
        for breaksTheProtocol in [false, true] {
            try withTransport { transport, port, delegate in
                let socket = try TestSocket(port: port)
                _ = try socket.upgrade()
                try waitUntil { delegate.opened.count == 1 }
                transport.close(delegate.opened[0], code: 4000, reason: "done")
                #expect(try socket.readFrame().closeCode == 4000)
                if breaksTheProtocol {
                    try socket.write([0x81, 0x02] + Array("hi".utf8))  // unmasked, while the server waits for a close
                } else {
                    try socket.sendFrame(opcode: 8, fin: true, payload: [0x0F, 0xA0])
                }
                // No second close frame, no echo: the server shuts its side down and the socket reads its end.
                #expect(throws: TestSocketError("connection closed")) { try socket.readFrame() }
                try waitUntil { delegate.closed.count == 1 }
            }
        }
    }

    /// The loop destroys its context only once no wake-up taken while it ran is left: here one is held
    /// open by hand (as a poster between the mutex and `lws_cancel_service` holds it), and the shutdown
    /// waits for it.
    @Test func theContextOutlivesAWakeUpInFlight() throws {
        var configuration = TransportConfiguration(port: 0)
        configuration.shutdownGracePeriod = .milliseconds(50)
        let transport = Transport(configuration: configuration, delegate: TestDelegate())
        _ = try transport.start()
        // reserved under the mutex, as a poster does
        let waker = try #require(transport.shared.withLock { state -> LoopWaker? in
            if case .running(let waker) = state.phase { waker.reserve() } else { nil }
        })
        try Self.expectShutdownWaits(for: waker) { transport.shutdown() }
    }

    /// Runs `shutdown` on another thread while `waker` has a wake-up reserved: it must not return
    /// until the wake-up is made.
    static func expectShutdownWaits(for waker: LoopWaker, _ shutdown: @escaping @Sendable () -> Void) throws {
        let race = PostingRace()
        let stopper = try LoopThread.spawn(name: "stopper") {
            shutdown()
            race.stopped.store(true, ordering: .releasing)
        }
        usleep(300_000)
        let stoppedEarly = race.stopped.load(ordering: .acquiring)
        #expect(!stoppedEarly)  // still waiting for the wake-up
        waker.wakeReserved()
        try waitUntil { race.stopped.load(ordering: .acquiring) }
        stopper.join()
    }

    /// The client's loop shares the mechanism: it too destroys its context only once the wake-up
    /// reserved before it stopped is made.
    @Test func theClientContextOutlivesAWakeUpInFlight() throws {
        let client = WebSocketClient { _ in }
        try client.start()
        let waker = try #require(client.shared.withLock { state -> LoopWaker? in
            if case .running(let waker) = state.phase { waker.reserve() } else { nil }
        })
        try Self.expectShutdownWaits(for: waker) { client.shutdown() }
    }

    /// Every wake-up a poster takes is given back: two threads post as fast as they can while the
    /// transport shuts down, twenty times over, and each shutdown ends with none counted. A wake-up
    /// never given back would keep the loop from destroying its context: the shutdown would not end.
    /// (That the loop waits for one in flight is the test above.)
    @Test func postsRacingTheShutdownGiveEveryWakeUpBack() throws {
        for _ in 0..<20 {
            var configuration = TransportConfiguration(port: 0)
            configuration.shutdownGracePeriod = .milliseconds(50)
            let transport = Transport(configuration: configuration, delegate: TestDelegate())
            _ = try transport.start()
            let waker = try #require(transport.shared.withLock { state -> LoopWaker? in
                if case .running(let waker) = state.phase { waker } else { nil }
            })
            let race = PostingRace()
            let posters = try (0..<2).map { _ in
                try LoopThread.spawn(name: "poster") {
                    while !race.stop.load(ordering: .relaxed) {
                        transport.send(Array("x".utf8), to: ConnectionID(raw: 999_999))  // no such connection: dropped by the loop
                        race.posted.add(1, ordering: .relaxed)
                    }
                }
            }
            try waitUntil { race.posted.load(ordering: .relaxed) > 1_000 }
            let stopper = try LoopThread.spawn(name: "stopper") {
                transport.shutdown()
                race.stopped.store(true, ordering: .releasing)
            }
            try waitUntil(timeout: .seconds(5)) { race.stopped.load(ordering: .acquiring) }
            stopper.join()
            #expect(waker.reservedCount == 0)
            race.stop.store(true, ordering: .relaxed)
            for poster in posters { poster.join() }
        }
    }

    @Test func shutdownEndsAtTheGracePeriodWhenAClientNeverAnswersTheClose() throws {
        try withTransport { transport, port, delegate in  // a grace period of 300 ms
            let silent = try TestSocket(port: port)  // never reads, never answers the close
            _ = try silent.upgrade()
            try waitUntil { delegate.opened.count == 1 }
            let started = ContinuousClock.now
            transport.shutdown()
            // Housekeeping runs every second here; lws' own wait for the close would end the loop at 5 s.
            #expect(ContinuousClock.now - started < .seconds(2))
        }
    }

    @Test func aBroadcastReachesEveryTarget() throws {
        try withTransport { transport, port, delegate in
            let sockets = try (0..<3).map { _ in try TestSocket(port: port) }
            for socket in sockets {
                _ = try socket.upgrade()
            }
            try waitUntil { delegate.opened.count == 3 }
            transport.send(Array("to all".utf8), to: delegate.opened, coalescingKey: nil)
            for socket in sockets {
                #expect(try socket.readFrame().text == "to all")
            }
        }
    }

    @Test func queuedMessagesWithOneKeyCoalesceToTheLatest() throws {
        // The delegate sends 100 keyed messages and one keyless one from `didOpen`: they reach the loop in
        // one mailbox batch, before the socket is writeable, so the keyed ones collapse in place.
        try withTransport { _, port, _ in
            let socket = try TestSocket(port: port)
            _ = try socket.upgrade(path: "/ws?coalesce=100")
            #expect(try socket.readFrame().text == "state 99")
            #expect(try socket.readFrame().text == "done")
        }
    }

    @Test func aMessageThatDependsOnTheOneItReplacedIsReportedSoAWholeOneFollows() throws {
        // Sent in one mailbox batch before the socket is writeable: "delta 0" finds "whole" waiting
        // and is not queued, which is reported once; "delta 1" to "delta 4" are dropped too, and the
        // delegate's answer (a whole message with the key) replaces "whole" or follows it.
        try withTransport { _, port, delegate in
            let socket = try TestSocket(port: port)
            _ = try socket.upgrade(path: "/ws?deltas=5")
            var frames: [String] = []
            while !(frames.contains("whole again") && frames.contains("done")) {
                frames.append(try socket.readFrame().text)
            }
            #expect(delegate.skipped.count == 1)
            #expect(delegate.skipped.allSatisfy { $0.0 == "state" && $0.1 == delegate.opened })
            #expect(!frames.contains { $0.hasPrefix("delta") })
            // Keyed messages without the mark replace as before, unreported.
            let plain = try TestSocket(port: port)
            _ = try plain.upgrade(path: "/ws?coalesce=20")
            #expect(try plain.readFrame().text == "state 19")
            #expect(delegate.skipped.count == 1)
        }
    }

    @Test func aClientThatStopsReadingIsDroppedWithoutHoldingUpOthers() throws {
        try withTransport({ $0.slowClientTimeout = .milliseconds(200); $0.maxQueuedMessages = 10_000 }) { transport, port, delegate in
            let stuck = try TestSocket(port: port, receiveBufferSize: 4096)
            _ = try stuck.upgrade()
            let healthy = try TestSocket(port: port)
            _ = try healthy.upgrade()
            try waitUntil { delegate.opened.count == 2 }
            let stuckID = delegate.opened[0]
            let chunk = [UInt8](repeating: UInt8(ascii: "x"), count: 64 * 1024)
            for _ in 0..<256 {  // 16 MiB: more than the kernel buffers on both ends hold
                transport.send(chunk, to: stuckID)
            }
            try healthy.sendText("still here")
            #expect(try healthy.readFrame().text == "still here")
            try waitUntil(timeout: .seconds(4)) { delegate.closed.contains(stuckID) }
            try healthy.sendText("and now")
            #expect(try healthy.readFrame().text == "and now")
        }
    }

    @Test func shutdownClosesEveryWebSocketWith1001() throws {
        let delegate = TestDelegate()
        var configuration = TransportConfiguration(port: 0)
        configuration.shutdownGracePeriod = .seconds(1)
        let transport = Transport(configuration: configuration, delegate: delegate)
        let port = try transport.start()
        let sockets = try (0..<3).map { _ in try TestSocket(port: port) }
        for socket in sockets {
            _ = try socket.upgrade()
        }
        try waitUntil { delegate.opened.count == 3 }
        let finished = Mutex(false)
        let stopper = try LoopThread.spawn(name: "test-shutdown") {
            transport.shutdown()
            finished.withLock { $0 = true }
        }
        for socket in sockets {
            let close = try socket.readFrame()
            #expect(close.opcode == 8)
            #expect(close.closeCode == 1001)
            try socket.sendFrame(opcode: 8, fin: true, payload: close.payload)
        }
        stopper.join()
        #expect(finished.withLock { $0 })
        #expect(Set(delegate.closed) == Set(delegate.opened))
        #expect(throws: TransportError.alreadyStarted) { _ = try transport.start() }
    }
}

// MARK: - Test delegate

/// Echoes HTTP requests as `METHOD PATH [query]\n[body]` and WebSocket messages as they are; records
/// what happens. Refuses upgrades from `http://evil.example` with 403.
final class TestDelegate: TransportDelegate {
    private let state = Mutex(Events())

    private struct Events {
        var requests: [HTTPRequest] = []
        var signalsBlockedOnLoopThread: [Bool] = []
        var opened: [ConnectionID] = []
        var closed: [ConnectionID] = []
        var skipped: [(String, [ConnectionID])] = []
    }

    var requests: [HTTPRequest] { state.withLock { $0.requests } }
    /// For each request: whether SIGINT and SIGTERM were blocked on the thread that delivered it.
    var signalsBlockedOnLoopThread: [Bool] { state.withLock { $0.signalsBlockedOnLoopThread } }
    var opened: [ConnectionID] { state.withLock { $0.opened } }
    var closed: [ConnectionID] { state.withLock { $0.closed } }
    /// Every `didSkipMessageBefore` report: the key and the connections.
    var skipped: [(String, [ConnectionID])] { state.withLock { $0.skipped } }

    func transport(_ transport: Transport, didReceive request: HTTPRequest, id: ConnectionID) {
        var mask = sigset_t()
        pthread_sigmask(SIG_BLOCK, nil, &mask)
        let blocked = sigismember(&mask, SIGINT) == 1 && sigismember(&mask, SIGTERM) == 1
        state.withLock {
            $0.requests.append(request)
            $0.signalsBlockedOnLoopThread.append(blocked)
        }
        if request.path == "/not-modified" {
            transport.respond(to: id, with: HTTPResponse(status: 304, headers: [("ETag", "\"v1\"")], body: Array("ignored".utf8)))
            return
        }
        var text = "\(request.method.rawValue) \(request.path)"
        for item in request.queryItems {
            text += " \(item.name)=\(item.value)"
        }
        let body = Array((text + "\n").utf8) + request.body
        transport.respond(to: id, with: HTTPResponse(status: 200, headers: [("X-Connection", "\(id.raw)")], body: body))
    }

    func transport(_ transport: Transport, shouldAccept upgrade: UpgradeRequest) -> UpgradeDecision {
        guard upgrade.headers["origin"] != "http://evil.example" else {
            return .reject(status: 403, body: Array(#"{"error":{"code":"forbidden","message":"origin"}}"#.utf8))
        }
        return .accept
    }

    func transport(_ transport: Transport, didOpen id: ConnectionID, upgrade: UpgradeRequest) {
        state.withLock { $0.opened.append(id) }
        if let count = upgrade.query["coalesce"].flatMap(Int.init) {
            for index in 0..<count {
                transport.send(Array("state \(index)".utf8), to: id, coalescingKey: "state")
            }
            transport.send(Array("done".utf8), to: id)
        }
        // A whole state, then deltas that each depend on the message before them.
        if let count = upgrade.query["deltas"].flatMap(Int.init) {
            transport.send(Array("whole".utf8), to: id, coalescingKey: "state")
            for index in 0..<count {
                transport.send(Array("delta \(index)".utf8), to: [id], coalescingKey: "state", dependsOnPrevious: true)
            }
            transport.send(Array("done".utf8), to: id)
        }
    }

    func transport(_ transport: Transport, didSkipMessageBefore coalescingKey: String, for ids: [ConnectionID]) {
        state.withLock { $0.skipped.append((coalescingKey, ids)) }
        transport.send(Array("whole again".utf8), to: ids, coalescingKey: coalescingKey)
    }

    func transport(_ transport: Transport, didReceiveMessage bytes: [UInt8], from id: ConnectionID) {
        transport.send(bytes, to: id)
    }

    func transport(_ transport: Transport, didClose id: ConnectionID) {
        state.withLock { $0.closed.append(id) }
    }
}

/// What the threads of a shutdown race share.
private final class PostingRace: Sendable {
    /// The posters stop.
    let stop = Atomic<Bool>(false)
    let posted = Atomic<Int>(0)
    /// `shutdown()` has returned.
    let stopped = Atomic<Bool>(false)
}

/// Starts a transport on a free loopback port with a `TestDelegate`, runs `body`, shuts it down.
private func withTransport(
    _ configure: (inout TransportConfiguration) -> Void = { _ in },
    _ body: (Transport, Int, TestDelegate) throws -> Void
) throws {
    var configuration = TransportConfiguration(port: 0)
    configuration.shutdownGracePeriod = .milliseconds(300)
    configure(&configuration)
    let delegate = TestDelegate()
    let transport = Transport(configuration: configuration, delegate: delegate)
    let port = try transport.start()
    defer { transport.shutdown() }
    try body(transport, port, delegate)
}

/// Polls `condition` until it holds or `timeout` passes.
private func waitUntil(timeout: Duration = .seconds(2), _ condition: () -> Bool) throws {
    let deadline = ContinuousClock.now + timeout
    while !condition() {
        guard ContinuousClock.now < deadline else { throw TestSocketError("condition not met within \(timeout)") }
        usleep(5_000)
    }
}

// MARK: - A minimal blocking HTTP / WebSocket client over POSIX sockets

struct TestSocketError: Error, Equatable, CustomStringConvertible {
    let description: String
    init(_ description: String) { self.description = description }
}

struct TestHTTPResponse {
    var statusLine: String
    var headers: [String: String]
    var body: [UInt8]
    /// The head as received, status line to blank line.
    var head = ""
    var status: Int { Int(statusLine.split(separator: " ")[1]) ?? 0 }
    var text: String { String(decoding: body, as: UTF8.self) }
}

struct WebSocketFrame: Equatable {
    var opcode: UInt8
    var payload: [UInt8]
    var text: String { String(decoding: payload, as: UTF8.self) }
    var closeCode: UInt16? {
        guard opcode == 8, payload.count >= 2 else { return nil }
        return UInt16(payload[0]) << 8 | UInt16(payload[1])
    }
}

final class TestSocket {
    private let descriptor: Int32
    private var buffered: [UInt8] = []

    init(port: Int, receiveBufferSize: Int32? = nil) throws {
        #if canImport(Glibc)
        descriptor = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        #else
        descriptor = socket(AF_INET, SOCK_STREAM, 0)
        #endif
        guard descriptor >= 0 else { throw TestSocketError("socket() failed") }
        if var size = receiveBufferSize {
            setsockopt(descriptor, SOL_SOCKET, SO_RCVBUF, &size, socklen_t(MemoryLayout<Int32>.size))
        }
        var timeout = timeval(tv_sec: 5, tv_usec: 0)
        setsockopt(descriptor, SOL_SOCKET, SO_RCVTIMEO, &timeout, socklen_t(MemoryLayout<timeval>.size))
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_port = in_port_t(UInt16(port).bigEndian)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        let result = withUnsafePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) {
                connect(descriptor, $0, socklen_t(MemoryLayout<sockaddr_in>.size))
            }
        }
        guard result == 0 else {
            close(descriptor)
            throw TestSocketError("connect() failed: errno \(errno)")
        }
    }

    deinit {
        close(descriptor)
    }

    func write(_ text: String) throws {
        try write(Array(text.utf8))
    }

    func write(_ bytes: [UInt8]) throws {
        var offset = 0
        while offset < bytes.count {
            #if canImport(Glibc)
            let flags = Int32(MSG_NOSIGNAL)
            #else
            let flags: Int32 = 0
            #endif
            let sent = bytes[offset...].withUnsafeBytes { send(descriptor, $0.baseAddress, $0.count, flags) }
            guard sent > 0 else { throw TestSocketError("send() failed: errno \(errno)") }
            offset += sent
        }
    }

    /// Reads an HTTP/1.1 response framed by `content-length`.
    func readHTTPResponse(bodyExpected: Bool = true) throws -> TestHTTPResponse {
        let head = String(decoding: try read(until: Array("\r\n\r\n".utf8)), as: UTF8.self)
        var lines = head.split(separator: "\r\n")
        let statusLine = String(lines.removeFirst())
        var headers: [String: String] = [:]
        for line in lines {
            guard let colon = line.firstIndex(of: ":") else { continue }
            headers[line[..<colon].lowercased()] = line[line.index(after: colon)...].trimmingCharacters(in: " ")
        }
        let length = bodyExpected ? Int(headers["content-length"] ?? "0") ?? 0 : 0
        return TestHTTPResponse(statusLine: statusLine, headers: headers, body: try read(count: length), head: head)
    }

    /// Sends a WebSocket handshake and reads the answer.
    func upgrade(path: String = "/ws", protocols: [String] = [], origin: String? = nil) throws -> TestHTTPResponse {
        var request = "GET \(path) HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n"
        request += "Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nSec-WebSocket-Version: 13\r\n"
        if !protocols.isEmpty { request += "Sec-WebSocket-Protocol: \(protocols.joined(separator: ", "))\r\n" }
        if let origin { request += "Origin: \(origin)\r\n" }
        try write(request + "\r\n")
        let response = try readHTTPResponse(bodyExpected: true)
        if response.status == 101 {
            #expect(response.headers["sec-websocket-accept"] == "s3pPLMBiTxaQ9kYGzzhZRbK+xOo=")
        }
        return response
    }

    func sendText(_ text: String) throws {
        try sendFrame(opcode: 1, fin: true, payload: Array(text.utf8))
    }

    /// Sends one masked frame, as a client must.
    func sendFrame(opcode: UInt8, fin: Bool, payload: [UInt8]) throws {
        var frame: [UInt8] = [(fin ? 0x80 : 0) | opcode]
        switch payload.count {
        case ..<126:
            frame.append(0x80 | UInt8(payload.count))
        case ..<65536:
            frame.append(0x80 | 126)
            frame += [UInt8(payload.count >> 8), UInt8(payload.count & 0xFF)]
        default:
            frame.append(0x80 | 127)
            frame += (0..<8).reversed().map { UInt8((payload.count >> ($0 * 8)) & 0xFF) }
        }
        let mask: [UInt8] = [0x12, 0x34, 0x56, 0x78]
        frame += mask
        frame += payload.enumerated().map { $0.element ^ mask[$0.offset % 4] }
        try write(frame)
    }

    /// Reads one (unmasked, server-sent) frame; pings are skipped unless asked for.
    func readFrame(skippingPings: Bool = true) throws -> WebSocketFrame {
        while true {
            let header = try read(count: 2)
            var length = Int(header[1] & 0x7F)
            if length == 126 {
                length = try read(count: 2).reduce(0) { $0 << 8 | Int($1) }
            } else if length == 127 {
                length = try read(count: 8).reduce(0) { $0 << 8 | Int($1) }
            }
            let frame = WebSocketFrame(opcode: header[0] & 0x0F, payload: try read(count: length))
            if frame.opcode != 9 || !skippingPings { return frame }
        }
    }

    private func read(count: Int) throws -> [UInt8] {
        while buffered.count < count { try fill() }
        defer { buffered.removeFirst(count) }
        return Array(buffered[..<count])
    }

    private func read(until delimiter: [UInt8]) throws -> [UInt8] {
        while true {
            if let end = buffered.firstRange(of: delimiter) {
                defer { buffered.removeFirst(end.upperBound) }
                return Array(buffered[..<end.upperBound])
            }
            try fill()
        }
    }

    private func fill() throws {
        var chunk = [UInt8](repeating: 0, count: 65536)
        let received = chunk.withUnsafeMutableBytes { recv(descriptor, $0.baseAddress, $0.count, 0) }
        guard received > 0 else { throw TestSocketError(received == 0 ? "connection closed" : "recv() failed: errno \(errno)") }
        buffered += chunk[..<received]
    }
}

private extension Substring {
    func trimmingCharacters(in set: Character) -> String {
        String(drop { $0 == set }.reversed().drop { $0 == set }.reversed())
    }
}
