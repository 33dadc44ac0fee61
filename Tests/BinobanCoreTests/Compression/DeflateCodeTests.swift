import Testing

@testable import BinobanCore

@Suite("DEFLATE length and distance codes")
struct DeflateCodeTests {
    // RFC 1951 §3.2.5, as printed there: the first length or distance of each code and its extra bits.
    static let lengthBases = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    static let lengthExtraBits = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    static let distanceBases = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtraBits = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    /// The code of `value` in a table of first values: the last code whose first value is not above it.
    static func code(of value: Int, bases: [Int]) -> Int { bases.lastIndex { $0 <= value } ?? 0 }

    /// Checks `computed` against the RFC's table for every value in `values`.
    static func expectRFCCodes(
        _ values: ClosedRange<Int>, bases: [Int], extraBits: [Int], _ what: String,
        computed: (Int) -> (code: Int, width: Int, extra: Int)
    ) {
        for value in values {
            let expected = code(of: value, bases: bases)
            let (code, width, extra) = computed(value)
            #expect(code == expected, "\(what) \(value)")
            #expect(width == extraBits[expected], "\(what) \(value)")
            #expect(extra == value - bases[expected], "\(what) \(value)")
        }
    }

    @Test("Every match length 3…258 gets the RFC's code, extra-bit count and extra value")
    func lengths() {
        Self.expectRFCCodes(3...258, bases: Self.lengthBases, extraBits: Self.lengthExtraBits, "length") {
            Token.lengthCode($0)
        }
    }

    @Test("Every distance 1…32 768 gets the RFC's code, extra-bit count and extra value")
    func distances() {
        Self.expectRFCCodes(1...32_768, bases: Self.distanceBases, extraBits: Self.distanceExtraBits, "distance") {
            Token.distanceCode($0)
        }
    }

    @Test("A match token keeps its symbol, codes and extra bits apart")
    func tokenFields() {
        for (length, distance) in [(3, 1), (258, 32_768), (257, 24_577), (10, 4), (11, 5), (130, 16_384)] {
            let token = Token(length: length, distance: distance)
            let lengthCode = Token.lengthCode(length)
            let distanceCode = Token.distanceCode(distance)
            #expect(!token.isLiteral)
            #expect(token.symbol == 257 + lengthCode.code)
            #expect(token.lengthExtraWidth == lengthCode.width)
            #expect(Int(token.lengthExtra) == lengthCode.extra)
            #expect(token.distanceCode == distanceCode.code)
            #expect(token.distanceExtraWidth == distanceCode.width)
            #expect(Int(token.distanceExtra) == distanceCode.extra)
        }
        for byte in [0, 65, 255] {
            let token = Token(literal: UInt8(byte))
            #expect(token.isLiteral)
            #expect(token.symbol == byte)
        }
    }
}
