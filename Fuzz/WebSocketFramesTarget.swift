/// libFuzzer target for the frames a client sends (WebSocketReader, UTF8Validation, compiled in): the
/// events do not depend on how the bytes are split into reads; nothing is reported after a close or a
/// failure; every message is valid UTF-8 within the limit; and the UTF-8 check agrees with the
/// standard library's.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebSocketFrames(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    guard count > 0 else { return 0 }
    let pieceSize = Int(data[0]) + 1
    let bytes = Array(UnsafeBufferPointer(start: data + 1, count: count - 1))
    let limit = 300

    let whole = events(bytes, pieceSize: bytes.count + 1, limit: limit)
    guard events(bytes, pieceSize: pieceSize, limit: limit) == whole else { fatalError("events depend on how the bytes are split") }
    for (index, event) in whole.enumerated() {
        switch event {
        case .message(let message):
            guard message.count <= limit, String(validating: message, as: UTF8.self) != nil else { fatalError("bad message let through") }
        case .close, .fail:
            guard index == whole.count - 1 else { fatalError("an event after the end") }
        case .ping(let payload):
            guard payload.count <= 125 else { fatalError("a ping over 125 bytes") }
        case .pong:
            break
        }
    }
    guard UTF8Validation.isValid(bytes) == (String(validating: bytes, as: UTF8.self) != nil) else {
        fatalError("UTF-8 validation disagrees with the standard library")
    }
    return 0
}

private func events(_ bytes: [UInt8], pieceSize: Int, limit: Int) -> [WebSocketReader.Event] {
    var reader = WebSocketReader(limit: limit)
    var found: [WebSocketReader.Event] = []
    for start in stride(from: 0, to: bytes.count, by: pieceSize) {
        bytes[start..<min(start + pieceSize, bytes.count)].withUnsafeBytes { piece in
            reader.read(piece) { found.append($0) }
        }
    }
    return found
}
