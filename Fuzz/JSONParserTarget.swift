import PropsCatalog

/// libFuzzer target: any bytes either fail to parse or parse into a value that serializes and parses
/// back to itself.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONParser(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    guard let value = try? JSONParser.parse(bytes, maxDepth: 64) else { return 0 }
    let written = value.serializedBytes()
    guard let again = try? JSONParser.parse(written, maxDepth: 64) else { fatalError("serialized JSON does not parse back") }
    guard again.serializedBytes() == written else { fatalError("serialization is not stable") }
    return 0
}
