/// An answer ready for the wire: a ``ResponseHead`` serialized once and the body it precedes.
///
/// Answers kept in memory (a cached projection with its 200 and 304, a story's live-state head) are
/// prepared once and reused; any ``HTTPResponse`` can be prepared when it is answered.
package struct PreparedResponse: Sendable, Equatable {
    package let head: ResponseHead
    package let body: [UInt8]

    package init(head: ResponseHead, body: [UInt8] = []) {
        self.head = head
        self.body = body
    }

    package init(_ response: HTTPResponse) {
        self.init(head: ResponseHead(status: response.status, headers: response.headers), body: response.body)
    }

    package var status: Int { head.status }
}
