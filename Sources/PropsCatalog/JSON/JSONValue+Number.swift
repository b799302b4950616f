extension JSONValue {
    /// The one form of the JSON number written as `text` (which must be JSON number syntax):
    /// `.integer` when `Int64` holds it, `.double` when a double holds its exact decimal value,
    /// else `.exactNumber` with the text as given (also beyond a double's range). Nil when the text
    /// is not JSON number syntax.
    package static func number(text: String) -> JSONValue? {
        guard let decimal = DecimalText(text) else { return nil }
        if decimal.isIntegerSyntax {
            if let integer = Int64(text) { return .integer(integer) }
            return .exactNumber(text)
        }
        // Beyond a double's range (1e400 is infinite, 1e-400 zero) the text is kept: the Props type
        // says whether it takes the number, at the member's path.
        guard let double = Double(text), double.isFinite else { return .exactNumber(text) }
        // Up to 15 significant digits survive a trip through a double in its normal range.
        let fifteenDigits = decimal.digits.count <= 15 && (double.isNormal || (double.isZero && decimal.digits.isEmpty))
        if fifteenDigits || DecimalText(format(double)) == decimal { return .double(double) }
        return .exactNumber(text)
    }

    /// The JSON text of a number value (`2`, `2.5`, `18446744073709551615`); nil for other values.
    package var numberText: String? {
        switch self {
        case .integer(let value): String(value)
        case .double(let value): Self.format(value)
        case .exactNumber(let text): text
        default: nil
        }
    }
}
