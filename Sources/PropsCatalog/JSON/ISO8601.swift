public import Foundation

/// The one date format of the storybook: ISO 8601 in UTC, with milliseconds only when present.
///
/// Formatting rounds to the millisecond, and parsing what was formatted gives back a date that
/// formats to the same text, so dates survive any number of round trips unchanged.
public enum ISO8601 {
    private static let whole = Date.ISO8601FormatStyle(timeZone: .gmt)
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    /// `2026-11-22T10:00:00Z`, or `2026-11-22T10:00:00.250Z` when the date has a fraction of a second.
    public static func string(from date: Date) -> String {
        let milliseconds = Int64((date.timeIntervalSince1970 * 1000).rounded())
        let (seconds, fraction) = milliseconds.quotientAndRemainder(dividingBy: 1000)
        let (wholeSeconds, positiveFraction) = fraction < 0 ? (seconds - 1, fraction + 1000) : (seconds, fraction)
        let text = whole.format(Date(timeIntervalSince1970: TimeInterval(wholeSeconds)))
        guard positiveFraction != 0 else { return text }
        let digits = String(positiveFraction)
        return text.dropLast() + "." + String(repeating: "0", count: 3 - digits.count) + digits + "Z"
    }

    /// Parses both forms; nil for anything else.
    public static func date(from string: String) -> Date? {
        guard let date = (try? fractional.parse(string)) ?? (try? whole.parse(string)) else { return nil }
        return Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
