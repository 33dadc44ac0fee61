/// The constant tables of RFC 1951 §3.2.5 and §3.2.6: length and distance codes, and the fixed Huffman code.
enum DeflateTables {
    static let lengthBase: [UInt16] = [
        3, 4, 5, 6, 7, 8, 9, 10, 11, 13, 15, 17, 19, 23, 27, 31, 35, 43, 51, 59, 67, 83, 99, 115, 131, 163, 195, 227,
        258,
    ]
    static let lengthExtraBits: [UInt8] = [
        0, 0, 0, 0, 0, 0, 0, 0, 1, 1, 1, 1, 2, 2, 2, 2, 3, 3, 3, 3, 4, 4, 4, 4, 5, 5, 5, 5, 0,
    ]
    static let distanceBase: [UInt16] = [
        1, 2, 3, 4, 5, 7, 9, 13, 17, 25, 33, 49, 65, 97, 129, 193, 257, 385, 513, 769, 1025, 1537, 2049, 3073, 4097,
        6145, 8193, 12289, 16385, 24577,
    ]
    static let distanceExtraBits: [UInt8] = [
        0, 0, 0, 0, 1, 1, 2, 2, 3, 3, 4, 4, 5, 5, 6, 6, 7, 7, 8, 8, 9, 9, 10, 10, 11, 11, 12, 12, 13, 13,
    ]

    /// The length code (0-based, add 257 for the symbol) of each match length 3…258, indexed by length − 3.
    private static let lengthCodes: [UInt8] = {
        var codes = [UInt8](repeating: 0, count: 256)
        for code in 0..<29 {
            let first = Int(lengthBase[code])
            let last = code == 28 ? 258 : Int(lengthBase[code + 1]) - 1
            for length in first...last where length - 3 < 256 { codes[length - 3] = UInt8(code) }
        }
        return codes
    }()

    /// The distance code of `distance − 1` for distances up to 256, then of `256 + ((distance − 1) >> 7)`.
    private static let distanceCodes: [UInt8] = {
        var codes = [UInt8](repeating: 0, count: 512)
        for code in 0..<30 {
            let first = Int(distanceBase[code])
            let last = code == 29 ? 32_768 : Int(distanceBase[code + 1]) - 1
            for distance in first...last {
                if distance <= 256 {
                    codes[distance - 1] = UInt8(code)
                } else {
                    codes[256 + ((distance - 1) >> 7)] = UInt8(code)
                }
            }
        }
        return codes
    }()

    @inline(__always)
    static func lengthCode(_ length: Int) -> Int { Int(lengthCodes[length - 3]) }

    @inline(__always)
    static func distanceCode(_ distance: Int) -> Int {
        distance <= 256 ? Int(distanceCodes[distance - 1]) : Int(distanceCodes[256 + ((distance - 1) >> 7)])
    }

    /// The fixed literal/length code: 8 bits for 0…143, 9 for 144…255, 7 for 256…279, 8 for 280…287.
    static let fixedLiterals = HuffmanCode(
        lengths: (0..<288).map { symbol in
            symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8
        })
    /// The fixed distance code: 5 bits for each of the 30 codes (32 with the two unused).
    static let fixedDistances = HuffmanCode(lengths: [UInt8](repeating: 5, count: 30))
}
