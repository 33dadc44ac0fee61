/// The fixed Huffman code of RFC 1951 §3.2.6. The length and distance codes of §3.2.5 are computed, not looked
/// up (``Token/lengthCode(_:)``, ``Token/distanceCode(_:)``): a table read from a global costs a lazy-initialiser
/// check per token in the hot loop.
enum DeflateTables {
    /// The fixed literal/length code: 8 bits for 0…143, 9 for 144…255, 7 for 256…279, 8 for 280…287.
    static let fixedLiterals = HuffmanCode(
        lengths: (0..<288).map { symbol in
            symbol < 144 ? 8 : symbol < 256 ? 9 : symbol < 280 ? 7 : 8
        })
    /// The fixed distance code: 5 bits for each of the 30 codes (32 with the two unused).
    static let fixedDistances = HuffmanCode(lengths: [UInt8](repeating: 5, count: 30))
}
