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
        let (seconds, fraction) = floorDivision(milliseconds, 1000)
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        guard (1...9999).contains(year) else {
            // Outside four-digit years, let Foundation decide the form.
            let text = whole.format(Date(timeIntervalSince1970: TimeInterval(seconds)))
            return fraction == 0 ? text : text.dropLast() + "." + digits(fraction, width: 3) + "Z"
        }
        var text = digits(year, width: 4) + "-" + digits(month, width: 2) + "-" + digits(day, width: 2)
        text += "T" + digits(secondOfDay / 3600, width: 2) + ":" + digits(secondOfDay / 60 % 60, width: 2)
        text += ":" + digits(secondOfDay % 60, width: 2)
        if fraction != 0 { text += "." + digits(fraction, width: 3) }
        return text + "Z"
    }

    /// Quotient and remainder rounded towards minus infinity, so the remainder is never negative.
    private static func floorDivision(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        let (quotient, remainder) = value.quotientAndRemainder(dividingBy: divisor)
        return remainder < 0 ? (quotient - 1, remainder + divisor) : (quotient, remainder)
    }

    /// The proleptic Gregorian date of a day counted from 1970-01-01 (Howard Hinnant's `civil_from_days`).
    private static func civilDate(daysSinceEpoch: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let shifted = daysSinceEpoch + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }

    private static func digits(_ value: Int64, width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// Parses both forms; nil for anything else.
    public static func date(from string: String) -> Date? {
        guard let date = (try? fractional.parse(string)) ?? (try? whole.parse(string)) else { return nil }
        return Date(timeIntervalSince1970: (date.timeIntervalSince1970 * 1000).rounded() / 1000)
    }
}
