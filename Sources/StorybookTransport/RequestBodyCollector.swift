/// Gathers one request body according to its ``BodyFraming``, never holding more than the limit.
struct RequestBodyCollector {
    enum Progress: Equatable {
        /// More body bytes are expected.
        case needMore
        /// The body is complete; take it with ``takeBody()``.
        case complete
        /// The body cannot be accepted; answer with the error and close the connection.
        case failed(RequestBodyError)
    }

    private enum Mode {
        case none
        case contentLength(Int)
        case chunked(ChunkedBodyDecoder)
    }

    let limit: Int
    private var mode: Mode
    private var body: [UInt8] = []
    private var failure: RequestBodyError?
    /// Bytes arrived after the end of the body: they belong to a request the transport cannot hand back
    /// to libwebsockets, so the connection must close after the response.
    private(set) var hasTrailingBytes = false

    init(framing: BodyFraming, limit: Int) {
        self.limit = limit
        switch framing {
        case .none: mode = .none
        case .contentLength(let length): mode = .contentLength(length)
        case .chunked: mode = .chunked(ChunkedBodyDecoder(limit: limit))
        }
    }

    var isComplete: Bool {
        guard failure == nil else { return false }
        return switch mode {
        case .none: true
        case .contentLength(let length): body.count == length
        case .chunked(let decoder): decoder.isFinished
        }
    }

    /// Adds body bytes as libwebsockets delivers them.
    mutating func consume(_ bytes: some Collection<UInt8>) -> Progress {
        if let failure { return .failed(failure) }
        if isComplete {
            if !bytes.isEmpty { hasTrailingBytes = true }
            return .complete
        }
        switch mode {
        case .none:
            preconditionFailure("a bodiless request is always complete")
        case .contentLength(let length):
            guard body.count + bytes.count <= min(length, limit) else {
                return fail(.tooLarge(limit: limit))
            }
            body.append(contentsOf: bytes)
            return isComplete ? .complete : .needMore
        case .chunked(var decoder):
            let outcome = decoder.decode(bytes)
            mode = .chunked(decoder)
            switch outcome {
            case .needMore:
                return .needMore
            case .finished(let consumed):
                hasTrailingBytes = consumed < bytes.count
                return .complete
            case .malformed:
                return fail(.malformed("malformed chunked body"))
            case .tooLarge:
                return fail(.tooLarge(limit: limit))
            }
        }
    }

    /// libwebsockets reports that the declared length has arrived.
    mutating func finish() -> Progress {
        if let failure { return .failed(failure) }
        if isComplete { return .complete }
        if case .chunked = mode { return .needMore }
        return fail(.malformed("request body ended early"))
    }

    /// The collected body (moves it out; the collector is spent afterwards).
    mutating func takeBody() -> [UInt8] {
        switch mode {
        case .chunked(var decoder):
            let decoded = decoder.takeBody()
            mode = .chunked(decoder)
            return decoded
        case .none, .contentLength:
            let collected = body
            body = []
            return collected
        }
    }

    private mutating func fail(_ error: RequestBodyError) -> Progress {
        failure = error
        body = []
        return .failed(error)
    }
}
