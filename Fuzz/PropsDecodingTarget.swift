import DemoCatalog
import PropsCatalog

private let catalog = try! DemoCatalog.make()

/// libFuzzer target: the input (as JSON) validated against every demo component either fails with an
/// error or yields canonical props that validate again to themselves.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPropsDecoding(_ data: UnsafePointer<UInt8>, _ count: Int) -> CInt {
    let bytes = Array(UnsafeBufferPointer(start: data, count: count))
    guard let json = try? JSONParser.parse(bytes, maxDepth: 64) else { return 0 }
    for component in catalog.components {
        guard case .success(let validated) = component.validate(json) else { continue }
        guard case .success(let again) = component.validate(validated.props), again.props == validated.props else {
            fatalError("validated props of \(component.id) do not validate to themselves")
        }
    }
    return 0
}
