/// Formats random bits as a lower-case RFC 4122 version 4 UUID string without going through `UUID`.
enum MessageID {
    private static let hexDigits: [UInt8] = Array("0123456789abcdef".utf8)

    /// A lower-case UUID v4 string (`xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`) built from two draws of `random`.
    static func make(from random: some BinobanRandomSource) -> String {
        format(high: random.next(), low: random.next())
    }

    /// Formats 128 bits as a version 4, variant 1 UUID string.
    static func format(high: UInt64, low: UInt64) -> String {
        let versioned = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let varianted = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        return String(unsafeUninitializedCapacity: 36) { buffer in
            var index = 0
            func put(_ value: UInt64, nibbles: Int) {
                var shift = (nibbles - 1) * 4
                while shift >= 0 {
                    buffer[index] = hexDigits[Int((value >> UInt64(shift)) & 0xF)]
                    index += 1
                    shift -= 4
                }
            }
            func dash() {
                buffer[index] = UInt8(ascii: "-")
                index += 1
            }
            put(versioned >> 32, nibbles: 8)
            dash()
            put((versioned >> 16) & 0xFFFF, nibbles: 4)
            dash()
            put(versioned & 0xFFFF, nibbles: 4)
            dash()
            put(varianted >> 48, nibbles: 4)
            dash()
            put(varianted & 0xFFFF_FFFF_FFFF, nibbles: 12)
            return index
        }
    }
}
