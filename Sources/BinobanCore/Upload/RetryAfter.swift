/// A parsed `Retry-After` response header (RFC 9110 §10.2.3): a delay in seconds or an HTTP-date.
///
/// Pure: parsing reads no clock and allocates nothing beyond the header's bytes. The grammar is the RFC's,
/// case-sensitive as §5.6.7 says:
///
/// - `delay-seconds` = `1*DIGIT`, optionally surrounded by spaces or tabs; no sign, no fraction. A value too
///   large for `Int64` saturates at `Int64.max` seconds.
/// - `HTTP-date` in each of the three forms a recipient must accept:
///   - IMF-fixdate: `Sun, 06 Nov 1994 08:49:37 GMT`
///   - obsolete RFC 850: `Sunday, 06-Nov-94 08:49:37 GMT`
///   - asctime: `Sun Nov  6 08:49:37 1994`
///
/// The day name must be a valid one but is not checked against the date (§5.6.7 asks recipients to be robust);
/// the day of the month is checked against the month and leap years, `23:59:60` (a leap second) is accepted and
/// counts as the next second. Anything else, and any header longer than ``maximumLength`` bytes, is `nil`.
///
/// An RFC 850 two-digit year is interpreted with a fixed pivot unless a reference year is given: `70`–`99` are
/// 1970–1999 and `00`–`69` are 2000–2069. With `referenceYear`, the rule of §5.6.7 applies instead: the year in
/// the reference year's century, or the previous century when that is more than 50 years after the reference.
enum RetryAfter: Sendable, Equatable {
    /// Wait this many seconds (`delay-seconds`).
    case seconds(Int64)
    /// Wait until this instant (an `HTTP-date`), in milliseconds since 1970-01-01T00:00:00Z.
    case date(millisecondsSince1970: Int64)

    /// Headers longer than this many UTF-8 bytes are refused without being scanned.
    static let maximumLength = 256

    /// Parses a `Retry-After` value, or returns `nil` when it matches none of the accepted forms.
    ///
    /// - Parameter referenceYear: the current year, for the RFC 850 two-digit-year rule; `nil` uses the fixed
    ///   pivot described on the type.
    static func parse(_ value: String, referenceYear: Int? = nil) -> RetryAfter? {
        var value = value
        return value.withUTF8 { bytes -> RetryAfter? in
            guard bytes.count <= maximumLength else { return nil }
            var start = 0
            var end = bytes.count
            while start < end, isWhitespace(bytes[start]) { start += 1 }
            while end > start, isWhitespace(bytes[end - 1]) { end -= 1 }
            guard start < end else { return nil }
            let trimmed = UnsafeBufferPointer(rebasing: bytes[start..<end])
            if isDigit(trimmed[0]) { return parseSeconds(trimmed) }
            var parser = HTTPDateParser(trimmed, referenceYear: referenceYear)
            guard let millis = parser.parse() else { return nil }
            return .date(millisecondsSince1970: millis)
        }
    }

    /// How long to wait from `nowMillisSince1970`, in milliseconds: never negative (a date in the past gives 0),
    /// saturating at `Int64.max`.
    func delayMillis(nowMillisSince1970: Int64) -> Int64 {
        switch self {
        case .seconds(let seconds):
            let (millis, overflow) = max(0, seconds).multipliedReportingOverflow(by: 1000)
            return overflow ? Int64.max : millis
        case .date(let target):
            let (delay, overflow) = target.subtractingReportingOverflow(nowMillisSince1970)
            if overflow { return target > nowMillisSince1970 ? Int64.max : 0 }
            return max(0, delay)
        }
    }

    /// Days from 1970-01-01 to the proleptic Gregorian date `year-month-day` (Howard Hinnant's `days_from_civil`).
    static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month > 2 ? month - 3 : month + 9) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// Whether `year` is a Gregorian leap year.
    static func isLeapYear(_ year: Int64) -> Bool {
        (year % 4 == 0 && year % 100 != 0) || year % 400 == 0
    }

    private static func parseSeconds(_ bytes: UnsafeBufferPointer<UInt8>) -> RetryAfter? {
        var seconds: Int64 = 0
        var saturated = false
        for byte in bytes {
            guard isDigit(byte) else { return nil }
            guard !saturated else { continue }
            let (times10, overflow1) = seconds.multipliedReportingOverflow(by: 10)
            let (sum, overflow2) = times10.addingReportingOverflow(Int64(byte &- UInt8(ascii: "0")))
            if overflow1 || overflow2 {
                saturated = true
                seconds = Int64.max
            } else {
                seconds = sum
            }
        }
        return .seconds(seconds)
    }

    fileprivate static func isDigit(_ byte: UInt8) -> Bool {
        byte >= UInt8(ascii: "0") && byte <= UInt8(ascii: "9")
    }

    private static func isWhitespace(_ byte: UInt8) -> Bool {
        byte == UInt8(ascii: " ") || byte == UInt8(ascii: "\t")
    }
}

/// A one-pass cursor over the bytes of an HTTP-date.
private struct HTTPDateParser {
    private static let shortDays = ["Mon", "Tue", "Wed", "Thu", "Fri", "Sat", "Sun"].map { Array($0.utf8) }
    private static let longDays = ["Monday", "Tuesday", "Wednesday", "Thursday", "Friday", "Saturday", "Sunday"]
        .map { Array($0.utf8) }
    private static let months = ["Jan", "Feb", "Mar", "Apr", "May", "Jun", "Jul", "Aug", "Sep", "Oct", "Nov", "Dec"]
        .map { Array($0.utf8) }

    let bytes: UnsafeBufferPointer<UInt8>
    let referenceYear: Int?
    var index = 0

    init(_ bytes: UnsafeBufferPointer<UInt8>, referenceYear: Int?) {
        self.bytes = bytes
        self.referenceYear = referenceYear
    }

    /// Milliseconds since 1970 for a whole-input match of one of the three forms, else `nil`.
    mutating func parse() -> Int64? {
        if consumeAny(Self.shortDays) != nil {
            if consume(",") { return imfFixdate() }
            if consume(" ") { return asctime() }
        }
        index = 0  // "Sun" is also the start of "Sunday"
        if consumeAny(Self.longDays) != nil, consume(",") { return rfc850() }
        return nil
    }

    // IMF-fixdate after the day name and comma: SP 2DIGIT SP month SP 4DIGIT SP time SP "GMT"
    private mutating func imfFixdate() -> Int64? {
        guard consume(" "), let day = digits(2), consume(" "), let month = consumeAny(Self.months),
            consume(" "), let year = digits(4), consume(" "), let time = timeOfDay(), consume(" "), consume("GMT"),
            atEnd
        else { return nil }
        return instant(year: year, month: Int64(month + 1), day: day, secondsOfDay: time)
    }

    // rfc850-date after the long day name and comma: SP 2DIGIT "-" month "-" 2DIGIT SP time SP "GMT"
    private mutating func rfc850() -> Int64? {
        guard consume(" "), let day = digits(2), consume("-"), let month = consumeAny(Self.months), consume("-"),
            let shortYear = digits(2), consume(" "), let time = timeOfDay(), consume(" "), consume("GMT"), atEnd
        else { return nil }
        return instant(year: fullYear(shortYear), month: Int64(month + 1), day: day, secondsOfDay: time)
    }

    // asctime-date after the short day name and space: month SP ( 2DIGIT / ( SP DIGIT ) ) SP time SP 4DIGIT
    private mutating func asctime() -> Int64? {
        guard let month = consumeAny(Self.months), consume(" ") else { return nil }
        let day: Int64
        if consume(" ") {
            guard let single = digits(1) else { return nil }
            day = single
        } else {
            guard let double = digits(2) else { return nil }
            day = double
        }
        guard consume(" "), let time = timeOfDay(), consume(" "), let year = digits(4), atEnd else { return nil }
        return instant(year: year, month: Int64(month + 1), day: day, secondsOfDay: time)
    }

    /// `hour ":" minute ":" second`, 00:00:00 – 23:59:60, as seconds into the day.
    private mutating func timeOfDay() -> Int64? {
        guard let hour = digits(2), consume(":"), let minute = digits(2), consume(":"), let second = digits(2),
            hour <= 23, minute <= 59, second <= 60
        else { return nil }
        return hour * 3600 + minute * 60 + second
    }

    private func fullYear(_ shortYear: Int64) -> Int64 {
        guard let referenceYear else { return shortYear >= 70 ? 1900 + shortYear : 2000 + shortYear }
        let reference = Int64(referenceYear)
        let century = reference - reference % 100
        let candidate = century + shortYear
        return candidate - reference > 50 ? candidate - 100 : candidate
    }

    private func instant(year: Int64, month: Int64, day: Int64, secondsOfDay: Int64) -> Int64? {
        let lengths: [Int64] = [31, RetryAfter.isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
        guard day >= 1, day <= lengths[Int(month - 1)] else { return nil }
        let days = RetryAfter.daysFromCivil(year: year, month: month, day: day)
        return (days * 86_400 + secondsOfDay) * 1000
    }

    private var atEnd: Bool { index == bytes.count }

    private mutating func consume(_ literal: StaticString) -> Bool {
        let count = literal.utf8CodeUnitCount
        guard bytes.count - index >= count else { return false }
        let base = literal.utf8Start
        for offset in 0..<count where bytes[index + offset] != base[offset] { return false }
        index += count
        return true
    }

    /// Consumes the first of `candidates` that matches here and returns its position.
    private mutating func consumeAny(_ candidates: [[UInt8]]) -> Int? {
        for (position, candidate) in candidates.enumerated() {
            guard bytes.count - index >= candidate.count else { continue }
            var matches = true
            for offset in 0..<candidate.count where bytes[index + offset] != candidate[offset] {
                matches = false
                break
            }
            if matches {
                index += candidate.count
                return position
            }
        }
        return nil
    }

    /// Exactly `count` ASCII digits as a number.
    private mutating func digits(_ count: Int) -> Int64? {
        guard bytes.count - index >= count else { return nil }
        var value: Int64 = 0
        for offset in 0..<count {
            let byte = bytes[index + offset]
            guard RetryAfter.isDigit(byte) else { return nil }
            value = value * 10 + Int64(byte - UInt8(ascii: "0"))
        }
        index += count
        return value
    }
}
