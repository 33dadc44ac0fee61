#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

/// UTC ISO-8601 timestamps with millisecond precision, such as `2026-08-02T12:00:00.120Z`.
///
/// Hand-written because `ISO8601DateFormatter` is missing from FoundationEssentials and
/// `Date.ISO8601FormatStyle` costs about half a microsecond per call on the event hot path.
public enum ISO8601Timestamp: Sendable {
    /// The first instant a timestamp can show: `0000-01-01T00:00:00.000Z`, in milliseconds since 1970.
    public static let earliestMillisecondsSince1970: Int64 = -62_167_219_200_000
    /// The last instant a timestamp can show: `9999-12-31T23:59:59.999Z`, in milliseconds since 1970.
    public static let latestMillisecondsSince1970: Int64 = 253_402_300_799_999

    /// Formats `date` as `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC. Milliseconds are truncated, not rounded.
    ///
    /// A date outside years 0000 to 9999 is clamped to the nearest of those bounds, and NaN becomes
    /// `1970-01-01T00:00:00.000Z`; ``string(representing:)`` returns `nil` for such dates instead.
    ///
    /// - Complexity: O(1).
    public static func string(from date: Date) -> String {
        let seconds = date.timeIntervalSince1970
        guard !seconds.isNaN else { return string(fromMillisecondsSince1970: 0) }
        let milliseconds = (seconds * 1000).rounded(.down)
        let clamped = min(
            max(milliseconds, Double(earliestMillisecondsSince1970)), Double(latestMillisecondsSince1970))
        return string(fromMillisecondsSince1970: Int64(clamped))
    }

    /// Formats `date` like ``string(from:)``, or returns `nil` when it is NaN, infinite or outside years 0000
    /// to 9999, which a four-digit ISO-8601 year cannot show.
    ///
    /// - Complexity: O(1).
    public static func string(representing date: Date) -> String? {
        let milliseconds = (date.timeIntervalSince1970 * 1000).rounded(.down)
        guard milliseconds.isFinite, milliseconds >= Double(earliestMillisecondsSince1970),
            milliseconds <= Double(latestMillisecondsSince1970)
        else { return nil }
        return string(fromMillisecondsSince1970: Int64(milliseconds))
    }

    /// Formats a Unix time in milliseconds as `yyyy-MM-ddTHH:mm:ss.SSSZ` in UTC.
    public static func string(fromMillisecondsSince1970 milliseconds: Int64) -> String {
        var bytes: [UInt8] = []
        bytes.reserveCapacity(24)
        append(millisecondsSince1970: milliseconds, to: &bytes)
        return String(decoding: bytes, as: UTF8.self)
    }

    /// Appends the text of ``string(fromMillisecondsSince1970:)`` to `bytes`, without building a `String`: the
    /// event encoders write a timestamp per event.
    package static func append(millisecondsSince1970 milliseconds: Int64, to bytes: inout [UInt8]) {
        let (days, millisOfDay) = floorDivide(milliseconds, 86_400_000)
        let (year, month, day) = civilDate(fromDaysSince1970: days)
        guard (0..<10_000).contains(year) else {
            appendFields(year: year, month: month, day: day, millisOfDay: millisOfDay, to: &bytes)
            return
        }
        // The 24 bytes are written into a buffer on the stack and appended at once: appended one by one, each byte
        // checked the array's capacity and uniqueness again, which was most of a timestamp's cost on the encoders'
        // hot path (the pipeline loop encodes an event's timestamp per event in a burst).
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 24) { text in
            func put(_ value: Int64, at offset: Int) {
                text[offset] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value / 10)
                text[offset + 1] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value % 10)
            }
            put(year / 100, at: 0)
            put(year % 100, at: 2)
            text[4] = UInt8(ascii: "-")
            put(month, at: 5)
            text[7] = UInt8(ascii: "-")
            put(day, at: 8)
            text[10] = UInt8(ascii: "T")
            put(millisOfDay / 3_600_000, at: 11)
            text[13] = UInt8(ascii: ":")
            put(millisOfDay / 60_000 % 60, at: 14)
            text[16] = UInt8(ascii: ":")
            put(millisOfDay / 1000 % 60, at: 17)
            text[19] = UInt8(ascii: ".")
            let millis = millisOfDay % 1000
            text[20] = UInt8(ascii: "0") + UInt8(truncatingIfNeeded: millis / 100)
            put(millis % 100, at: 21)
            text[23] = UInt8(ascii: "Z")
            bytes.append(contentsOf: UnsafeBufferPointer(text))
        }
    }

    /// The field-by-field writing of ``append(millisecondsSince1970:to:)``, for a year outside 0000–9999 (a sign
    /// or a fifth digit).
    private static func appendFields(
        year: Int64, month: Int64, day: Int64, millisOfDay: Int64, to bytes: inout [UInt8]
    ) {
        appendPadded(year, width: 4, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(month, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "-"))
        appendPadded(day, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "T"))
        appendPadded(millisOfDay / 3_600_000, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(millisOfDay / 60_000 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: ":"))
        appendPadded(millisOfDay / 1000 % 60, width: 2, to: &bytes)
        bytes.append(UInt8(ascii: "."))
        appendPadded(millisOfDay % 1000, width: 3, to: &bytes)
        bytes.append(UInt8(ascii: "Z"))
    }

    private static func floorDivide(_ value: Int64, _ divisor: Int64) -> (Int64, Int64) {
        var quotient = value / divisor
        var remainder = value % divisor
        if remainder < 0 {
            quotient -= 1
            remainder += divisor
        }
        return (quotient, remainder)
    }

    /// Howard Hinnant's days-to-civil algorithm (proleptic Gregorian calendar).
    private static func civilDate(fromDaysSince1970 days: Int64) -> (Int64, Int64, Int64) {
        let shifted = days + 719_468
        let era = (shifted >= 0 ? shifted : shifted - 146_096) / 146_097
        let dayOfEra = shifted - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let monthIndex = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * monthIndex + 2) / 5 + 1
        let month = monthIndex < 10 ? monthIndex + 3 : monthIndex - 9
        let year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0)
        return (year, month, day)
    }

    /// Appends `value` in decimal, zero-padded to `width` digits (2, 3 or 4). Every field but a year outside
    /// 0000–9999 has exactly `width` digits and is written digit by digit, dividing by constants (a division by a
    /// variable power of ten cost more than the rest of the timestamp); such a year (a sign or a fifth digit: the
    /// clamping callers never produce one, a raw millisecond count can) goes through `String`.
    private static func appendPadded(_ value: Int64, width: Int, to bytes: inout [UInt8]) {
        func digit(_ value: Int64) -> UInt8 { UInt8(ascii: "0") + UInt8(truncatingIfNeeded: value) }
        switch width {
        case 2 where (0..<100).contains(value):
            bytes.append(digit(value / 10))
            bytes.append(digit(value % 10))
        case 3 where (0..<1000).contains(value):
            bytes.append(digit(value / 100))
            bytes.append(digit(value / 10 % 10))
            bytes.append(digit(value % 10))
        case 4 where (0..<10_000).contains(value):
            bytes.append(digit(value / 1000))
            bytes.append(digit(value / 100 % 10))
            bytes.append(digit(value / 10 % 10))
            bytes.append(digit(value % 10))
        default:
            let digits = String(value).utf8
            if digits.count < width {
                bytes.append(contentsOf: repeatElement(UInt8(ascii: "0"), count: width - digits.count))
            }
            bytes.append(contentsOf: digits)
        }
    }
}
