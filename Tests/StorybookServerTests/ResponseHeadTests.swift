@testable import StorybookServer
import Testing
@testable import StorybookTransport

/// The head lines a response is prepared into: what the writer copies after the status line.
struct ResponseHeadTests {
    @Test func headLinesKeepTheValidApplicationHeadersInOrder() {
        let head = ResponseHead(status: 200, headers: [
            ("Content-Type", "text/plain"), ("Content-Length", "99"), ("bad name", "x"), ("ETag", "\"e\""),
            ("X-Injected", "a\r\nb: c"), ("Connection", "close"), ("transfer-encoding", "chunked"), ("Cache-Control", "no-cache"),
        ])
        #expect(String(decoding: head.lines, as: UTF8.self) == "Content-Type: text/plain\r\nETag: \"e\"\r\nCache-Control: no-cache\r\n")
        #expect(!head.forbidsBody)
        #expect(ResponseHead(status: 304, headers: []).forbidsBody)
        #expect(ResponseHead(status: 204, headers: []).forbidsBody)
    }

    @Test func preparingKeepsTheBodyAndTheStatus() {
        let prepared = PreparedResponse(HTTPResponse(status: 201, headers: [("X-A", "1")], body: [1, 2]))
        #expect(prepared.status == 201)
        #expect(prepared.body == [1, 2])
        #expect(prepared.head == ResponseHead(status: 201, headers: [("X-A", "1")]))
    }
}
