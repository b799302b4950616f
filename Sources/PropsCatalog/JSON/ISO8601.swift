public import Foundation

/// The one date format of the storybook: ISO 8601 in UTC, with milliseconds only when present.
public enum ISO8601 {
    private static let whole = Date.ISO8601FormatStyle(timeZone: .gmt)
    private static let fractional = Date.ISO8601FormatStyle(includingFractionalSeconds: true, timeZone: .gmt)

    /// `2026-11-22T10:00:00Z`, or `2026-11-22T10:00:00.250Z` when the date has a fraction of a second.
    public static func string(from date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        return seconds.rounded(.down) == seconds ? whole.format(date) : fractional.format(date)
    }

    /// Parses both forms; nil for anything else.
    public static func date(from string: String) -> Date? {
        (try? fractional.parse(string)) ?? (try? whole.parse(string))
    }
}
