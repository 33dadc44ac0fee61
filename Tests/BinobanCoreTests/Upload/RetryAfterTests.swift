import TestSupport
import Testing

@testable import BinobanCore

@Suite("Retry-After parsing")
struct RetryAfterTests {
    /// 1994-11-06T08:49:37Z, the RFC's example instant.
    static let rfcExampleMillis: Int64 = 784_111_777_000

    static let valid: [(String, RetryAfter)] = [
        ("0", .seconds(0)),
        ("120", .seconds(120)),
        ("  120\t", .seconds(120)),
        ("007", .seconds(7)),
        ("9223372036854775807", .seconds(Int64.max)),
        ("9223372036854775808", .seconds(Int64.max)),
        (String(repeating: "9", count: 200), .seconds(Int64.max)),
        ("Sun, 06 Nov 1994 08:49:37 GMT", .date(millisecondsSince1970: rfcExampleMillis)),
        (" Sun, 06 Nov 1994 08:49:37 GMT ", .date(millisecondsSince1970: rfcExampleMillis)),
        ("Sunday, 06-Nov-94 08:49:37 GMT", .date(millisecondsSince1970: rfcExampleMillis)),
        ("Sun Nov  6 08:49:37 1994", .date(millisecondsSince1970: rfcExampleMillis)),
        ("Sun Nov 06 08:49:37 1994", .date(millisecondsSince1970: rfcExampleMillis)),
        ("Thu, 01 Jan 1970 00:00:00 GMT", .date(millisecondsSince1970: 0)),
        ("Wed, 31 Dec 1969 23:59:59 GMT", .date(millisecondsSince1970: -1000)),
        ("Sat, 31 Dec 2016 23:59:60 GMT", .date(millisecondsSince1970: 1_483_228_800_000)),
        ("Fri, 31 Dec 9999 23:59:59 GMT", .date(millisecondsSince1970: 253_402_300_799_000)),
        ("Wednesday, 31-Dec-69 23:59:59 GMT", .date(millisecondsSince1970: 3_155_759_999_000)),
        ("Thursday, 01-Jan-76 00:00:00 GMT", .date(millisecondsSince1970: 189_302_400_000)),
        // The day name is not checked against the date (RFC 9110 §5.6.7: be robust).
        ("Mon, 06 Nov 1994 08:49:37 GMT", .date(millisecondsSince1970: rfcExampleMillis)),
    ]

    static let invalid: [String] = [
        "", " ", "\t", "-1", "+1", "1.5", "1e3", "1 2", "12a", "a12", "１２",
        "sun, 06 Nov 1994 08:49:37 GMT",  // case-sensitive
        "Sun, 06 nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 1994 08:49:37 gmt",
        "Sun, 06 Nov 1994 08:49:37 UTC",
        "Sun, 06 Nov 1994 08:49:37 +0000",
        "Sun, 06 Nov 1994 08:49:37",
        "Sun, 06 Nov 1994 08:49:37 GMT extra",
        "Sun, 6 Nov 1994 08:49:37 GMT",
        "Sun,  06 Nov 1994 08:49:37 GMT",
        "Sun 06 Nov 1994 08:49:37 GMT",
        "Sun, 06 Nov 94 08:49:37 GMT",
        "Sun, 06 Nov 1994 8:49:37 GMT",
        "Sun, 06 Nov 1994 24:00:00 GMT",
        "Sun, 06 Nov 1994 23:60:00 GMT",
        "Sun, 06 Nov 1994 23:59:61 GMT",
        "Sun, 00 Nov 1994 08:49:37 GMT",
        "Sun, 31 Nov 1994 08:49:37 GMT",
        "Sun, 32 Jan 1994 08:49:37 GMT",
        "Xyz, 06 Nov 1994 08:49:37 GMT",
        "Sunday, 06 Nov 1994 08:49:37 GMT",
        "Sun, 06-Nov-94 08:49:37 GMT",
        "Sunday, 06-Nov-1994 08:49:37 GMT",
        "Sunday, 6-Nov-94 08:49:37 GMT",
        "Sun Nov 6 08:49:37 1994",
        "Sun Nov  6 08:49:37 94",
        "Sun Nov  6 08:49:37 1994 GMT",
        "Sun Nov   6 08:49:37 1994",
        "Sun Nov 31 08:49:37 1994",
        "Sun",
        "Sun,",
        "Sunday",
        "Sun, 06 Nov 1994 08:49:37 GMT\u{0}",
        "Sun, 06 Nov 1994 08:49:37 GMT\n",
    ]

    @Test("Valid headers parse to the expected value")
    func validHeaders() {
        for (header, expected) in Self.valid {
            #expect(RetryAfter.parse(header) == expected, "\(header)")
        }
    }

    @Test("Invalid headers give nil")
    func invalidHeaders() {
        for header in Self.invalid {
            #expect(RetryAfter.parse(header) == nil, "\(header.debugDescription)")
        }
    }

    @Test("The three forms of one instant give the same value")
    func threeFormsAgree() {
        let forms = [
            "Thu, 29 Feb 2024 13:05:09 GMT", "Thursday, 29-Feb-24 13:05:09 GMT", "Thu Feb 29 13:05:09 2024",
        ]
        let values = forms.map { RetryAfter.parse($0) }
        let seconds: Int64 = 1_709_164_800 + 13 * 3600 + 5 * 60 + 9
        #expect(values[0] == .date(millisecondsSince1970: seconds * 1000))
        #expect(values.allSatisfy { $0 == values[0] })
    }

    @Test("Leap years: 29 February exists only in Gregorian leap years")
    func leapYears() {
        #expect(RetryAfter.parse("Thu, 29 Feb 2024 00:00:00 GMT") == .date(millisecondsSince1970: 1_709_164_800_000))
        #expect(RetryAfter.parse("Tue, 29 Feb 2000 00:00:00 GMT") == .date(millisecondsSince1970: 951_782_400_000))
        #expect(RetryAfter.parse("Fri, 01 Mar 2024 00:00:00 GMT") == .date(millisecondsSince1970: 1_709_251_200_000))
        #expect(RetryAfter.parse("Wed, 29 Feb 2023 00:00:00 GMT") == nil)
        #expect(RetryAfter.parse("Thu, 29 Feb 1900 00:00:00 GMT") == nil)
        #expect(RetryAfter.parse("Mon, 29 Feb 2100 00:00:00 GMT") == nil)
        #expect(RetryAfter.isLeapYear(1600) && RetryAfter.isLeapYear(2000) && RetryAfter.isLeapYear(1996))
        #expect(!RetryAfter.isLeapYear(1700) && !RetryAfter.isLeapYear(1900) && !RetryAfter.isLeapYear(2023))
    }

    @Test("days-from-civil agrees with day-by-day counting from 1970 over 1960–2100")
    func daysFromCivil() {
        var days: Int64 = daysBefore1970(from: 1960)
        for year: Int64 in 1960...2100 {
            let lengths: [Int64] = [31, RetryAfter.isLeapYear(year) ? 29 : 28, 31, 30, 31, 30, 31, 31, 30, 31, 30, 31]
            for month: Int64 in 1...12 {
                for day in 1...lengths[Int(month - 1)] {
                    #expect(RetryAfter.daysFromCivil(year: year, month: month, day: day) == days)
                    days += 1
                }
            }
        }
    }

    private func daysBefore1970(from start: Int64) -> Int64 {
        -(start..<1970).reduce(0) { $0 + (RetryAfter.isLeapYear($1) ? 366 : 365) }
    }

    @Test("RFC 850 years with a reference year follow the 50-years-in-the-future rule")
    func rfc850ReferenceYear() {
        let header = "Thursday, 01-Jan-76 00:00:00 GMT"
        // 2076 is exactly 50 years after 2026, not more: it stays in this century.
        #expect(RetryAfter.parse(header, referenceYear: 2026) == .date(millisecondsSince1970: 3_345_062_400_000))
        // From 2025, 2076 is 51 years ahead: the previous century.
        #expect(RetryAfter.parse(header, referenceYear: 2025) == .date(millisecondsSince1970: 189_302_400_000))
        // Without a reference year, the fixed pivot: 70–99 are 19xx.
        #expect(RetryAfter.parse(header) == .date(millisecondsSince1970: 189_302_400_000))
        #expect(
            RetryAfter.parse("Sunday, 06-Nov-94 08:49:37 GMT", referenceYear: 2026)
                == .date(millisecondsSince1970: Self.rfcExampleMillis))
    }

    @Test("Garbage and overlong input return nil quickly")
    func garbage() {
        var generator = SplitMix64(seed: 0x5EED_0210)
        for _ in 0..<2000 {
            let length = Int(generator.next() % 40)
            let bytes = (0..<length).map { _ in UInt8(truncatingIfNeeded: generator.next() % 128) }
            let text = String(decoding: bytes, as: UTF8.self)
            if let parsed = RetryAfter.parse(text), case .seconds = parsed {
                #expect(text.allSatisfy { ($0.isASCII && $0.isNumber) || $0 == " " || $0 == "\t" })
            }
        }
        let overlong = String(repeating: "1", count: RetryAfter.maximumLength + 1)
        #expect(RetryAfter.parse(overlong) == nil)
        let huge = "Sun, 06 Nov 1994 08:49:37 GMT" + String(repeating: " ", count: 1_000_000)
        #expect(RetryAfter.parse(huge) == nil)
        #expect(RetryAfter.parse(String(repeating: "\u{1F600}", count: 100)) == nil)
    }

    @Test("Delays: seconds in milliseconds, dates relative to now, never negative, saturating")
    func delays() {
        #expect(RetryAfter.seconds(0).delayMillis(nowMillisSince1970: 123) == 0)
        #expect(RetryAfter.seconds(5).delayMillis(nowMillisSince1970: 123) == 5000)
        #expect(RetryAfter.seconds(Int64.max).delayMillis(nowMillisSince1970: 0) == Int64.max)
        let date = RetryAfter.date(millisecondsSince1970: Self.rfcExampleMillis)
        #expect(date.delayMillis(nowMillisSince1970: Self.rfcExampleMillis - 2500) == 2500)
        #expect(date.delayMillis(nowMillisSince1970: Self.rfcExampleMillis) == 0)
        #expect(date.delayMillis(nowMillisSince1970: Self.rfcExampleMillis + 1) == 0)
        #expect(RetryAfter.date(millisecondsSince1970: Int64.max).delayMillis(nowMillisSince1970: -10) == Int64.max)
        #expect(RetryAfter.date(millisecondsSince1970: Int64.min).delayMillis(nowMillisSince1970: 10) == 0)
    }
}
