import SDKCoreCommon
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite struct UnrepresentableDateTests {
    /// Dates `Int64(Double)` would trap on: NaN, infinities and dates beyond ±2^63 ms.
    @Test(arguments: [
        Double.nan, .infinity, -.infinity, 1e300, -1e300, 9.3e15, -9.3e15, 253_402_300_800, -62_167_219_201,
    ])
    func areDroppedAndReportedByTheConverter(seconds: Double) {
        let date = Date(timeIntervalSince1970: seconds)
        let result = JSONValue.convert(["at": date, "list": [date, 1] as [Any], "kept": 1])
        #expect(result.value == ["kept": 1, "list": [nil, 1]])
        #expect(result.issues.count == 2)
        #expect(result.issues.allSatisfy { $0.reason == .unrepresentableDate && $0.typeName == "Date" })
        #expect(ISO8601Timestamp.string(representing: date) == nil)
        #expect(!ISO8601Timestamp.string(from: date).isEmpty)
    }

    @Test func theBoundsOfFourDigitYearsAreRepresentable() {
        #expect(
            ISO8601Timestamp.string(representing: Date(timeIntervalSince1970: -62_167_219_200))
                == "0000-01-01T00:00:00.000Z")
        #expect(
            ISO8601Timestamp.string(representing: Date(timeIntervalSince1970: 253_402_300_799.999))
                == "9999-12-31T23:59:59.999Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: 1e300)) == "9999-12-31T23:59:59.999Z")
        #expect(ISO8601Timestamp.string(from: Date(timeIntervalSince1970: .nan)) == "1970-01-01T00:00:00.000Z")
    }

    @Test func deepNestingIsDroppedAndReported() {
        var value: Any = 1
        for _ in 0..<10_000 { value = [value] }
        let result = JSONValue.convert(["deep": value])
        #expect(result.issues.count == 1)
        #expect(result.issues.first?.reason == .nestingTooDeep)
    }
}
