/// A JSON number's decimal value, normalized so that equal values compare equal whatever their
/// spelling: `2`, `2.0`, `20e-1` and `0.2e1` are one value.
struct DecimalText: Equatable {
    var isNegative: Bool
    /// Significant digits without leading or trailing zeros ("" for zero).
    var digits: [UInt8]
    /// The value is `0.digits × 10^exponent`.
    var exponent: Int
    /// Written without a fraction or exponent.
    var isIntegerSyntax: Bool

    /// Parses JSON number syntax; nil for anything else.
    init?(_ text: String) {
        let bytes = Array(text.utf8)
        var index = 0
        isNegative = false
        if index < bytes.count, bytes[index] == UInt8(ascii: "-") { isNegative = true; index += 1 }
        var all: [UInt8] = []
        var pointPosition: Int?
        var sawDigit = false
        while index < bytes.count {
            let byte = bytes[index]
            if byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") {
                all.append(byte); sawDigit = true
            } else if byte == UInt8(ascii: "."), pointPosition == nil, sawDigit {
                pointPosition = all.count
            } else {
                break
            }
            index += 1
        }
        guard sawDigit, pointPosition.map({ all.count > $0 }) ?? true else { return nil }
        var exponentValue = 0
        isIntegerSyntax = pointPosition == nil
        if index < bytes.count, bytes[index] == UInt8(ascii: "e") || bytes[index] == UInt8(ascii: "E") {
            isIntegerSyntax = false
            index += 1
            var negativeExponent = false
            if index < bytes.count, bytes[index] == UInt8(ascii: "+") || bytes[index] == UInt8(ascii: "-") {
                negativeExponent = bytes[index] == UInt8(ascii: "-"); index += 1
            }
            let start = index
            while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") {
                exponentValue = min(exponentValue * 10 + Int(bytes[index] - UInt8(ascii: "0")), 1_000_000)
                index += 1
            }
            guard index > start else { return nil }
            if negativeExponent { exponentValue = -exponentValue }
        }
        guard index == bytes.count else { return nil }
        let integerDigits = pointPosition ?? all.count
        let leading = all.prefix { $0 == UInt8(ascii: "0") }.count
        var significant = Array(all.dropFirst(leading))
        while significant.last == UInt8(ascii: "0") { significant.removeLast() }
        digits = significant
        exponent = significant.isEmpty ? 0 : integerDigits - leading + exponentValue
        if significant.isEmpty { isNegative = false }
    }

    static func == (a: DecimalText, b: DecimalText) -> Bool {
        a.isNegative == b.isNegative && a.digits == b.digits && a.exponent == b.exponent
    }

    /// Whether the value is a whole number.
    var isWhole: Bool { digits.count <= exponent || digits.isEmpty }
}
