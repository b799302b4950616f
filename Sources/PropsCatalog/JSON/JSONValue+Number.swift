extension JSONValue {
    /// The one form of the JSON number written as `text` (which must be JSON number syntax):
    /// `.integer` when `Int64` holds it, `.double` when a double holds its exact decimal value,
    /// else `.exactNumber` with the text as given. Nil when the text is not a finite JSON number.
    package static func number(text: String) -> JSONValue? {
        guard let decimal = DecimalText(text) else { return nil }
        if decimal.isIntegerSyntax {
            if let integer = Int64(text) { return .integer(integer) }
            return .exactNumber(text)
        }
        guard let double = Double(text), double.isFinite else { return nil }
        // Up to 15 significant digits always survive a trip through a double.
        if decimal.digits.count <= 15 || DecimalText(format(double)) == decimal { return .double(double) }
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
