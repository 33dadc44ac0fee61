/// 128 random bits shown as a lower-case RFC 4122 version 4 UUID (`xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx`),
/// formatted without going through `UUID`.
///
/// An event keeps its id as the bits and the encoder writes the 36 characters straight into the event's bytes:
/// a `String` of 36 bytes is a heap allocation per `track()`.
struct MessageID: Sendable, Hashable {
    /// The first 64 bits (the version nibble is forced to 4 when written).
    var high: UInt64
    /// The last 64 bits (the variant bits are forced to `10` when written).
    var low: UInt64

    /// Two draws of `random`.
    static func random(from random: any BinobanRandomSource) -> MessageID {
        let (high, low) = random.nextPair()
        return MessageID(high: high, low: low)
    }

    /// A UUID v4 string from two draws of `random` (anonymous and instance ids).
    static func make(from random: any BinobanRandomSource) -> String {
        Self.random(from: random).text
    }

    /// The 36-character UUID string.
    var text: String {
        String(unsafeUninitializedCapacity: 36) { buffer in
            write { index, byte in buffer[index] = byte }
            return 36
        }
    }

    /// Appends the 36 characters to `bytes` (no quotes: they never need escaping).
    func append(to bytes: inout [UInt8]) {
        let start = bytes.count
        bytes.append(contentsOf: repeatElement(0, count: 36))
        bytes.withUnsafeMutableBufferPointer { buffer in
            write { index, byte in buffer[start + index] = byte }
        }
    }

    /// Calls `put` with each of the 36 characters and its position: 32 nibbles, high bits first, with dashes
    /// after nibbles 8, 12, 16 and 20.
    private func write(_ put: (Int, UInt8) -> Void) {
        let versioned = (high & 0xFFFF_FFFF_FFFF_0FFF) | 0x0000_0000_0000_4000
        let varianted = (low & 0x3FFF_FFFF_FFFF_FFFF) | 0x8000_0000_0000_0000
        var index = 0
        for nibble in 0..<32 {
            if nibble == 8 || nibble == 12 || nibble == 16 || nibble == 20 {
                put(index, UInt8(ascii: "-"))
                index += 1
            }
            let word = nibble < 16 ? versioned : varianted
            let shift = UInt64(60 - (nibble % 16) * 4)
            let digit = UInt8(truncatingIfNeeded: (word >> shift) & 0xF)
            put(index, digit < 10 ? UInt8(ascii: "0") + digit : UInt8(ascii: "a") - 10 + digit)
            index += 1
        }
    }
}
