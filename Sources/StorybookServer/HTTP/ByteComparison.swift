import Foundation

extension UnsafeBufferPointer<UInt8> {
    /// Whether `bytes` occur at `offset` (compared with `memcmp`: the loop thread reads paths and hosts
    /// this way, without making strings of them).
    func holds(_ bytes: [UInt8], at offset: Int) -> Bool {
        guard offset >= 0, offset + bytes.count <= count else { return false }
        guard let base = baseAddress, !bytes.isEmpty else { return bytes.isEmpty }
        return bytes.withUnsafeBufferPointer { memcmp(base + offset, $0.baseAddress!, bytes.count) == 0 }
    }
}
