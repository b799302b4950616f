public import Foundation

/// Number and date formatting for a BCP 47 locale, written out here rather than read from the
/// machine's ICU data, so that a projection's bytes are the same on every machine.
///
/// Covers the separators and short date order of the common languages; any other language formats
/// like `en-US`. Right-to-left: Arabic, Hebrew, Persian, Urdu, Yiddish, Pashto, Sindhi, Dhivehi.
public struct LocaleFormat: Sendable, Hashable {
    /// The language subtag, lowercased: `de` for `de-DE`.
    public let language: String
    /// The region subtag, uppercased, when the tag has one: `DE` for `de-DE`.
    public let region: String?

    /// The conventions of a BCP 47 language tag, e.g. `"de-DE"`.
    public init(_ tag: String) {
        let parts = tag.split(separator: "-").map(String.init)
        language = parts.first?.lowercased() ?? "en"
        region = parts.dropFirst().first { $0.count == 2 || ($0.count == 3 && $0.allSatisfy(\.isNumber)) }?.uppercased()
    }

    private static let rightToLeft: Set<String> = ["ar", "he", "iw", "fa", "ur", "yi", "ps", "sd", "dv", "ckb", "ug"]
    private static let commaDecimal: Set<String> = ["de", "es", "it", "nl", "pt", "id", "tr", "da", "el", "ro", "hr", "sl", "is"]
    private static let spaceGrouped: Set<String> = ["fr", "ru", "pl", "cs", "sk", "sv", "fi", "nb", "no", "uk", "bg", "hu", "et", "lt", "lv"]
    private static let yearFirst: Set<String> = ["ja", "zh", "ko", "hu", "lt", "sv"]

    /// The locale's reading direction.
    public var layoutDirection: LayoutDirection {
        Self.rightToLeft.contains(language) ? .rtl : .ltr
    }

    /// The decimal separator: `.` in `en`, `,` in `de` or `fr`.
    public var decimalSeparator: String {
        Self.commaDecimal.contains(language) || Self.spaceGrouped.contains(language) ? "," : "."
    }

    /// The thousands separator: `,` in `en`, `.` in `de`, a narrow no-break space in `fr`.
    public var groupingSeparator: String {
        if Self.commaDecimal.contains(language) { return "." }
        if language == "fr" { return "\u{202F}" }
        if Self.spaceGrouped.contains(language) { return "\u{00A0}" }
        return ","
    }

    /// `value` rounded half away from zero to `fractionDigits` digits, grouped by thousands:
    /// `1,234.5` in `en-US`, `1.234,5` in `de-DE`.
    public func format(_ value: Double, fractionDigits: Int = 0) -> String {
        guard value.isFinite else { return value.isNaN ? "NaN" : (value < 0 ? "-∞" : "∞") }
        let digits = max(0, min(fractionDigits, 9))
        var scale = 1.0
        for _ in 0..<digits { scale *= 10 }
        let scaled = (abs(value) * scale).rounded(.toNearestOrAwayFromZero)
        guard scaled < 9e15 else { return String(value) }
        let units = Int64(scaled)
        let whole = units / Int64(scale)
        let fraction = units % Int64(scale)
        var text = grouped(whole)
        if digits > 0 {
            let fractionText = String(fraction)
            text += decimalSeparator + String(repeating: "0", count: digits - fractionText.count) + fractionText
        }
        return (value < 0 && units != 0 ? "-" : "") + text
    }

    /// An integer grouped by thousands.
    public func format(_ value: Int) -> String {
        (value < 0 ? "-" : "") + grouped(Int64(value).magnitude)
    }

    private func grouped<Number: BinaryInteger>(_ value: Number) -> String {
        let plain = String(value.magnitude)
        guard plain.count > 3 else { return plain }
        var result = ""
        for (offset, character) in plain.enumerated() {
            if offset > 0 && (plain.count - offset) % 3 == 0 { result += groupingSeparator }
            result.append(character)
        }
        return result
    }

    /// The short numeric date of `date` in UTC: `11/23/2026` (en-US), `23.11.2026` (de),
    /// `23/11/2026` (fr, en-GB), `2026/11/23` (ja).
    public func shortDate(_ date: Date) -> String {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = TimeZone(identifier: "UTC")!
        let parts = calendar.dateComponents([.year, .month, .day], from: date)
        let (year, month, day) = (parts.year ?? 0, parts.month ?? 0, parts.day ?? 0)
        func two(_ number: Int) -> String { number < 10 ? "0\(number)" : String(number) }
        switch language {
        case "en" where region == nil || region == "US": return "\(month)/\(day)/\(year)"
        case "de", "ru", "pl", "cs", "sk", "fi", "nb", "no", "uk", "tr", "ro", "da": return "\(two(day)).\(two(month)).\(year)"
        case "nl": return "\(day)-\(month)-\(year)"
        case _ where Self.yearFirst.contains(language): return "\(year)/\(two(month))/\(two(day))"
        default: return "\(two(day))/\(two(month))/\(year)"
        }
    }
}

extension ViewEnvironment {
    /// The locale's formatting rules.
    public var formatting: LocaleFormat { LocaleFormat(locale) }

    /// `value` formatted for the locale with `fractionDigits` digits.
    public func format(_ value: Double, fractionDigits: Int = 0) -> String {
        formatting.format(value, fractionDigits: fractionDigits)
    }
}
