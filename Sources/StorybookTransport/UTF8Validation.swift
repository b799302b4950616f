/// Strict UTF-8 validation (RFC 3629): no overlong forms, no surrogates, nothing above U+10FFFF.
enum UTF8Validation {
    static func isValid(_ bytes: UnsafeRawBufferPointer) -> Bool {
        let count = bytes.count
        var index = 0
        while index < count {
            // Eight ASCII bytes at a time while they last.
            while index + 8 <= count, bytes.loadUnaligned(fromByteOffset: index, as: UInt64.self) & 0x8080_8080_8080_8080 == 0 {
                index += 8
            }
            guard index < count else { return true }
            let lead = bytes[index]
            if lead < 0x80 {
                index += 1
                continue
            }
            var lower: UInt8 = 0x80
            var upper: UInt8 = 0xBF
            let continuations: Int
            switch lead {
            case 0xC2...0xDF: continuations = 1
            case 0xE0: continuations = 2; lower = 0xA0
            case 0xE1...0xEC, 0xEE...0xEF: continuations = 2
            case 0xED: continuations = 2; upper = 0x9F
            case 0xF0: continuations = 3; lower = 0x90
            case 0xF1...0xF3: continuations = 3
            case 0xF4: continuations = 3; upper = 0x8F
            default: return false
            }
            guard index + continuations < count, (lower...upper).contains(bytes[index + 1]) else { return false }
            for offset in stride(from: 2, through: continuations, by: 1) where !(0x80...0xBF).contains(bytes[index + offset]) {
                return false
            }
            index += continuations + 1
        }
        return true
    }

    static func isValid(_ bytes: [UInt8]) -> Bool {
        bytes.withUnsafeBytes { isValid($0) }
    }
}
