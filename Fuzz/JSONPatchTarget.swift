import PropsCatalog

/// libFuzzer target: a patch (the input, as JSON) applied to a small document under a small limit
/// either fails or builds a document within the limit; it never traps or runs away.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJSONPatch(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    guard let json = try? JSONParser.parse(bytes, maxDepth: 64), let patch = try? JSONPatch(json: json) else { return 0 }
    let document: JSONValue = ["name": "Ada", "tags": ["a", "b"], "nested": ["list": [1, 2, 3], "flag": true]]
    let limit = JSONSizeLimit(weight: 4_096, depth: 16)
    guard let result = try? patch.apply(to: document, limit: limit) else { return 0 }
    guard result.fits(limit) else { fatalError("a patch built past its limit") }
    let diff = JSONPatch.diff(from: document, to: result)
    guard (try? diff.apply(to: document, limit: JSONSizeLimit(weight: 1 << 20))) == result else {
        fatalError("the diff of a patch's result does not rebuild it")
    }
    return 0
}
