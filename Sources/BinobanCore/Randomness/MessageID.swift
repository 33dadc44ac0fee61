/// Formats random bits as a lower-case RFC 4122 version 4 UUID string without going through `UUID`.
enum MessageID {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A lower-case UUID v4 string (`xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`) built from two draws of `random`.
    static func make(from random: any BinobanRandomSource) -> String {
        let (high, low) = random.nextPair()
        return format(high: high, low: low)
    }

    /// Formats 128 bits as a version 4, variant 1 UUID string.
    static func format(high: UInt64, low: UInt64) -> String {
        let versioned = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let varianted = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return String(unsafeUninitializedCapacity: 36) { buffer in
            // 32 nibbles, high bits first, with dashes after nibbles 8, 12, 16 and 20.
            var index = 0
            for nibble in 0..<32 {
                if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 {
                    buffer[index] = UInt8(ascii: "-")
                    index += 1
                }
                let word = nibble < 16 ? versioned : varianted
                let shift = UInt64(60 - (nibble % 16) * 4)
                let digit = UInt8(truncatingIfNeeded: (word >> shift) & 0xF)
                buffer[index] = digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit
                index += 1
            }
            return index
        }
    }
}
