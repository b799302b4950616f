/// libFuzzer target: any bytes parse into a client message or a failure whose error path, when it has
/// one, is a JSON Pointer.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzClientMessage(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    if case .failure(let failure) = ClientMessage.parse(bytes, maxDepth: 64), let path = failure.error.path,
       !path.isEmpty, !path.hasPrefix("/") {
        fatalError("error path '\(path)' is not a JSON Pointer")
    }
    return 0
}
