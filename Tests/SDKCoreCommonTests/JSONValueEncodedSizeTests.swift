import SDKCoreCommon
import Testing

/// The bounded size check for values that did not arrive as text (bridge dictionaries): it must agree with
/// the length of the compact text, and with the depth the parser would count.
@Suite struct JSONValueEncodedSizeTests {
    @Test func agreesWithTheLengthOfTheCompactText() {
        var random = TestRandom(seed: 9)
        for _ in 0..<2_000 {
            let value = Self.randomValue(&random, depth: 0)
            let length = value.jsonString().utf8.count
            #expect(value.exceedsLimits(JSONParsingLimits(maximumBytes: length)) == nil, "\(value)")
            #expect(value.exceedsLimits(JSONParsingLimits(maximumBytes: length - 1))?.reason == .tooLarge, "\(value)")
        }
    }

    @Test func countsEscapesAsTheWriterWritesThem() {
        let value: JSONValue = ["k\"": .string("a\\b\n\u{01}\"é")]
        let length = value.jsonString().utf8.count
        #expect(length == 26)
        #expect(value.exceedsLimits(JSONParsingLimits(maximumBytes: 26)) == nil)
        #expect(value.exceedsLimits(JSONParsingLimits(maximumBytes: 25))?.reason == .tooLarge)
    }

    @Test func refusesNestingPastTheDepthLimitAsTheParserDoes() throws {
        var deepest: JSONValue = 1
        for _ in 0..<64 { deepest = [deepest] }
        #expect(deepest.exceedsLimits(.untrusted) == nil)
        let tooDeep: JSONValue = ["a": deepest]
        let error = try #require(tooDeep.exceedsLimits(.untrusted))
        #expect(error.reason == .tooDeep)
        #expect(error.description == "tooDeep at byte 0: nesting deeper than 64 levels")
        #expect(throws: JSONParsingError.self) { try JSONValue(parsing: tooDeep.jsonString()) }
    }

    @Test func stopsAtTheLimitWithoutNamingTheContent() throws {
        // A hundred thousand strings of 8 bytes (a megabyte as text): the walk stops after about 6 000.
        let wide = JSONValue.array(Array(repeating: .string("secret!!"), count: 100_000))
        let error = try #require(wide.exceedsLimits(.untrusted))
        #expect(error.reason == .tooLarge)
        #expect(error.description == "tooLarge at byte 0: more than 65536 bytes as JSON text")
        #expect(!error.description.contains("secret"))
    }

    private static func randomValue(_ random: inout TestRandom, depth: Int) -> JSONValue {
        switch random.next() % (depth > 3 ? 6 : 8) {
        case 0: return .null
        case 1: return .bool(random.next() % 2 == 0)
        case 2: return .int(Int(truncatingIfNeeded: random.next()) >> Int(random.next() % 64))
        case 3:
            let double = Double(bitPattern: random.next())
            return .double(double.isFinite ? double : Double(random.next() % 1000) / 8)
        case 4, 5: return .string(randomText(&random))
        case 6:
            return .array((0..<Int(random.next() % 5)).map { _ in randomValue(&random, depth: depth + 1) })
        default:
            var members: [String: JSONValue] = [:]
            for _ in 0..<Int(random.next() % 5) {
                members[randomText(&random)] = randomValue(&random, depth: depth + 1)
            }
            return .object(members)
        }
    }

    private static func randomText(_ random: inout TestRandom) -> String {
        let pieces: [String] = ["a", "\"", "\\", "\n", "\r", "\t", "\u{0}", "\u{1F}", "é", "😀", " ", "/", "\u{7F}"]
        return (0..<Int(random.next() % 12)).map { _ in pieces[Int(random.next() % UInt64(pieces.count))] }.joined()
    }
}

/// SplitMix64, for reproducible random values.
private struct TestRandom {
    private var state: UInt64

    init(seed: UInt64) { state = seed }

    mutating func next() -> UInt64 {
        state &+= 0x9E37_79B9_7F4A_7C15
        var z = state
        z = (z ^ (z >> 30)) &* 0xBF58_476D_1CE4_E5B9
        z = (z ^ (z >> 27)) &* 0x94D0_49BB_1331_11EB
        return z ^ (z >> 31)
    }
}
