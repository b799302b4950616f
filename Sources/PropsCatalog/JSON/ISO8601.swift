package import Foundation

/// The one date format of the storybook: ISO 8601 (RFC 3339) in UTC, to the microsecond.
///
/// A `Date` is a `Double` of seconds since 2001, which holds a microsecond exactly enough for
/// dates within about 136 years of 2001 (1865 to 2137); there dates are kept to the microsecond,
/// further away to the millisecond. The fraction is written with 3 digits when the microseconds
/// are whole milliseconds, 6 when not, and left out when zero: `2026-11-22T10:00:00Z`,
/// `2026-11-22T10:00:00.250Z`, `2026-11-22T10:00:00.250125Z`. Parsing accepts any number of
/// fraction digits (rounded to what is kept) and any UTC offset (`+02:00`: the same instant,
/// written back in UTC), so a date survives any number of round trips unchanged.
package enum ISO8601 {
    private static let whole = Date.ISO8601FormatStyle(timeZone: .gmt)
    /// Seconds from 1970-01-01 to 2001-01-01, Foundation's reference date.
    private static let referenceOffset: Int64 = 978_307_200
    /// Within this many seconds of 2001 a double holds a microsecond (its spacing is below 0.5 µs).
    private static let microsecondRange: Double = 4_294_967_296

    /// `2026-11-22T10:00:00Z`, with `.250` or `.250125` when the date has a fraction of a second.
    package static func string(from date: Date) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(27)
        append(date, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the UTF-8 bytes of `string(from: date)` (ASCII, nothing a JSON string escapes).
    package static func append(_ date: Date, to bytes: inout [UInt8]) {
        let (seconds, micros) = split(date)
        let (days, secondOfDay) = floorDivision(seconds, 86_400)
        let (year, month, day) = civilDate(daysSinceEpoch: days)
        guard (1...9999).contains(year) else {
            let fraction = micros == 0 ? "" : micros % 1000 == 0 ? "." + digits(micros / 1000, width: 3) : "." + digits(micros, width: 6)
            // Outside four-digit years, let Foundation decide the form.
            let text = whole.format(Date(timeIntervalSince1970: TimeInterval(seconds)))
            bytes.append(contentsOf: (fraction.isEmpty ? text : text.dropLast() + fraction + "Z").utf8)
            return
        }
        // Written as bytes: concatenating a dozen small strings cost about 9k instructions a date.
        appendDigits(year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendDigits(day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendDigits(secondOfDay / 3600, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay / 60 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendDigits(secondOfDay % 60, width: 2, to: &bytes)
        if micros != 0 {
            bytes.append(UInt8(ascii: "."))
            if micros % 1000 == 0 {
                appendDigits(micros / 1000, width: 3, to: &bytes)
            } else {
                appendDigits(micros, width: 6, to: &bytes)
            }
        }
        bytes.append(UInt8(ascii: "Z"))
    }

    /// Appends the `width` lowest decimal digits of a non-negative `value`, zero-padded.
    private static func appendDigits(_ value: Int64, width: Int, to bytes: inout [UInt8]) {
        var divisor: Int64 = 1
        for _ in 1..<width { divisor *= 10 }
        while divisor > 0 {
            bytes.append(UInt8(ascii: "0") + UInt8(value / divisor % 10))
            divisor /= 10
        }
    }

    /// Whole seconds since 1970 and the microseconds kept (whole milliseconds far from 2001).
    private static func split(_ date: Date) -> (seconds: Int64, micros: Int64) {
        let interval = date.timeIntervalSinceReferenceDate
        let floor = interval.rounded(.down)
        let unit: Double = abs(interval) < microsecondRange ? 1_000_000 : 1000
        var fraction = Int64(((interval - floor) * unit).rounded())
        var seconds = Int64(floor)
        if fraction == Int64(unit) { seconds += 1; fraction = 0 }
        return (seconds + referenceOffset, unit == 1000 ? fraction * 1000 : fraction)
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

    /// The day counted from 1970-01-01 of a proleptic Gregorian date (Hinnant's `days_from_civil`).
    private static func daysSinceEpoch(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    private static func digits(_ value: Int64, width: Int) -> String {
        let text = String(value)
        return text.count >= width ? text : String(repeating: "0", count: width - text.count) + text
    }

    /// Parses `YYYY-MM-DDTHH:MM:SS[.fraction](Z|±HH:MM)`; nil for anything else.
    package static func date(from string: String) -> Date? {
        var scanner = DateScanner(Array(string.utf8))
        guard let year = scanner.number(4), scanner.skip("-"), let month = scanner.number(2), scanner.skip("-"),
              let day = scanner.number(2), scanner.skip("T") || scanner.skip("t"),
              let hour = scanner.number(2), scanner.skip(":"), let minute = scanner.number(2), scanner.skip(":"),
              let second = scanner.number(2)
        else { return nil }
        var fractionDigits: [UInt8] = []
        if scanner.skip(".") {
            fractionDigits = scanner.digitRun()
            guard !fractionDigits.isEmpty else { return nil }
        }
        var offset: Int64 = 0
        if !(scanner.skip("Z") || scanner.skip("z")) {
            let sign: Int64 = scanner.skip("+") ? 1 : scanner.skip("-") ? -1 : 0
            guard sign != 0, let offsetHour = scanner.number(2), scanner.skip(":"), let offsetMinute = scanner.number(2),
                  offsetHour < 24, offsetMinute < 60
            else { return nil }
            offset = sign * (offsetHour * 3600 + offsetMinute * 60)
        }
        guard scanner.isAtEnd, (1...12).contains(month), day >= 1, day <= daysIn(month: month, year: year),
              hour < 24, minute < 60, second < 60
        else { return nil }
        let days = daysSinceEpoch(year: year, month: month, day: day)
        let seconds = days * 86_400 + hour * 3600 + minute * 60 + second - offset - referenceOffset
        let fraction = fractionDigits.isEmpty ? 0 : Double("0." + String(decoding: fractionDigits, as: UTF8.self)) ?? 0
        let unit: Double = abs(Double(seconds)) < microsecondRange ? 1_000_000 : 1000
        return Date(timeIntervalSinceReferenceDate: Double(seconds) + (fraction * unit).rounded() / unit)
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: (year % 4 == 0 && year % 100 != 0) || year % 400 == 0 ? 29 : 28
        case 4, 6, 9, 11: 30
        default: 31
        }
    }
}

/// Reads the fixed-width fields of an ISO 8601 date-time.
private struct DateScanner {
    let bytes: [UInt8]
    var index = 0

    init(_ bytes: [UInt8]) { self.bytes = bytes }

    var isAtEnd: Bool { index == bytes.count }

    mutating func skip(_ character: Unicode.Scalar) -> Bool {
        guard index < bytes.count, bytes[index] == UInt8(ascii: character) else { return false }
        index += 1
        return true
    }

    /// Exactly `width` digits as a number.
    mutating func number(_ width: Int) -> Int64? {
        guard index + width <= bytes.count else { return nil }
        var value: Int64 = 0
        for byte in bytes[index..<index + width] {
            guard byte >= UInt8(ascii: "0"), byte <= UInt8(ascii: "9") else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        index += width
        return value
    }

    mutating func digitRun() -> [UInt8] {
        let start = index
        while index < bytes.count, bytes[index] >= UInt8(ascii: "0"), bytes[index] <= UInt8(ascii: "9") { index += 1 }
        return Array(bytes[start..<index])
    }
}
