import SDKCoreCommon
import Testing

#if canImport(FoundationEssentials)
import FoundationEssentials
#else
import Foundation
#endif

@Suite struct JSONValueTests {
    @Test func literalsBuildTheExpectedCases() {
        let value: JSONValue = ["s": "x", "i": 42, "d": 1.5, "b": true, "n": nil, "a": [1, "two"]]
        #expect(value["s"] == .string("x"))
        #expect(value["i"] == .int(42))
        #expect(value["d"] == .double(1.5))
        #expect(value["b"] == .bool(true))
        #expect(value["n"] == .null)
        #expect(value["a"] == .array([.int(1), .string("two")]))
    }

    @Test func aLiteralKeyGivenTwiceKeepsItsLastValue() {
        let elements: [(String, JSONValue)] = [("k", 1), ("other", 2), ("k", 3)]
        let value = JSONValue(dictionaryLiteral: elements[0], elements[1], elements[2])
        #expect(value == .object(["k": .int(3), "other": .int(2)]))
        let empty: JSONValue = [:]
        #expect(empty == .object([:]))
    }

    @Test func writesCompactJSONWithSortedKeysAndEscapes() {
        let value: JSONValue = ["b": "q\"\\\n\t\u{01}é", "a": [1, 2.5, nil, false], "c": [:]]
        #expect(value.jsonString() == #"{"a":[1,2.5,null,false],"b":"q\"\\\n\t\u0001é","c":{}}"#)
    }

    @Test func integralDoublesAreWrittenWithoutFraction() {
        #expect(JSONValue.double(3.0).jsonString() == "3")
        #expect(JSONValue.double(0.1).jsonString() == "0.1")
        #expect(JSONValue.double(.nan).jsonString() == "null")
        #expect(JSONValue.double(1e300).jsonString() == "1e+300")
    }

    @Test func writtenTextDecodesBackToTheSameValue() throws {
        let value: JSONValue = ["k": ["nested": [1, 2, ["x": "y"]]], "e": "🦅 & = # + %", "z": -7]
        let decoded = try JSONDecoder().decode(JSONValue.self, from: Data(value.jsonString().utf8))
        #expect(decoded == value)
    }

    @Test func convertsLooselyTypedDictionaries() {
        let date = Date(timeIntervalSince1970: 1_785_672_000.12)
        let input: [String: Any] = [
            "string": "s", "int": 7, "uint8": UInt8(9), "double": 2.25, "bool": true,
            "date": date, "url": URL(string: "https://example.com/a?b=c")!,
            "nested": ["inner": [1, "x"] as [Any]] as [String: Any],
            "hashable": [AnyHashable("k"): "v"] as [AnyHashable: Any],
            "optional": String?.none as Any,
        ]
        let result = JSONValue.convert(input)
        #expect(result.issues.isEmpty)
        #expect(result.value["string"] == "s")
        #expect(result.value["int"] == 7)
        #expect(result.value["uint8"] == 9)
        #expect(result.value["double"] == 2.25)
        #expect(result.value["bool"] == true)
        #expect(result.value["date"] == "2026-08-02T12:00:00.120Z")
        #expect(result.value["url"] == "https://example.com/a?b=c")
        #expect(result.value["nested"] == ["inner": [1, "x"]])
        #expect(result.value["hashable"] == ["k": "v"])
        #expect(result.value["optional"] == .null)
    }

    @Test func reportsWhatJSONCannotCarryWithoutTheValue() {
        final class Opaque {}
        let input: [String: Any] = [
            "nan": Double.nan, "inf": -Double.infinity, "object": Opaque(),
            "list": [1, Opaque()] as [Any], "keys": [AnyHashable(1): "secret"] as [AnyHashable: Any],
        ]
        let result = JSONValue.convert(input)
        #expect(result.value["nan"] == .null)
        #expect(result.value["inf"] == .null)
        #expect(result.value["object"] == nil)
        #expect(result.value["list"] == [1, nil])
        #expect(result.value["keys"] == [:])
        let described = result.issues.map(\.description).sorted()
        #expect(described.count == 5)
        #expect(described.contains("nan: nonFiniteNumber (Double)"))
        #expect(described.contains("list[1]: unsupportedType (Opaque)"))
        #expect(!described.joined().contains("secret"))
    }
}

@Suite struct ISO8601TimestampTests {
    @Test(arguments: [
        (Int64(0), "1970-01-01T00:00:00.000Z"),
        (Int64(1_785_672_000_120), "2026-08-02T12:00:00.120Z"),
        (Int64(951_782_400_000), "2000-02-29T00:00:00.000Z"),
        (Int64(-1), "1969-12-31T23:59:59.999Z"),
        (Int64(253_402_300_799_999), "9999-12-31T23:59:59.999Z"),
        // Written at once into a stack buffer (years 0000–9999): a leap day's last millisecond, a three-digit year.
        (Int64(951_868_799_999), "2000-02-29T23:59:59.999Z"),
        (Int64(-34_954_248_008_624), "0862-05-05T22:39:51.376Z"),
        (Int64(173_273_423_187_802), "7460-10-25T10:26:27.802Z"),
        // Raw counts beyond the four-digit years keep the spelling they always had: five digits, or a sign
        // inside the zero padding.
        (Int64(253_402_300_800_000), "10000-01-01T00:00:00.000Z"),
        (Int64(-62_167_219_200_001), "00-1-12-31T23:59:59.999Z"),
    ])
    func formatsMillisecondsInUTC(milliseconds: Int64, expected: String) {
        #expect(ISO8601Timestamp.string(fromMillisecondsSince1970: milliseconds) == expected)
    }

    @Test func agreesWithTheGregorianCalendar() throws {
        var calendar = Calendar(identifier: .gregorian)
        calendar.timeZone = try #require(TimeZone(identifier: "UTC"))
        for millis in stride(from: Int64(-2_000_000_000_000), to: 4_000_000_000_000, by: 7_654_321_987) {
            let seconds = Int64((Double(millis) / 1000).rounded(.down))
            let date = Date(timeIntervalSince1970: Double(seconds))
            let parts = calendar.dateComponents([.year, .month, .day, .hour, .minute, .second], from: date)
            let expected = String(
                format4: parts.year!, parts.month!, parts.day!, parts.hour!, parts.minute!, parts.second!,
                millis - seconds * 1000
            )
            #expect(ISO8601Timestamp.string(fromMillisecondsSince1970: millis) == expected)
        }
    }
}

private func pad(_ value: Int64, _ width: Int) -> String {
    let digits = String(value)
    return String(repeating: "0", count: max(0, width - digits.count)) + digits
}

extension String {
    fileprivate init(
        format4 year: Int, _ month: Int, _ day: Int, _ hour: Int, _ minute: Int, _ second: Int, _ ms: Int64
    ) {
        self =
            "\(pad(Int64(year), 4))-\(pad(Int64(month), 2))-\(pad(Int64(day), 2))T"
            + "\(pad(Int64(hour), 2)):\(pad(Int64(minute), 2)):\(pad(Int64(second), 2)).\(pad(ms, 3))Z"
    }
}

@Suite struct LockedValueTests {
    @Test func serializesConcurrentUpdates() async {
        let counter = LockedValue(0)
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask { for _ in 0..<10_000 { counter.withLock { $0 += 1 } } }
            }
        }
        #expect(counter.withLock { $0 } == 80_000)
    }
}
