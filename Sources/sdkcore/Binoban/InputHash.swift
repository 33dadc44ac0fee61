/// A running FNV-1a hash of the input lines, recorded with a checkpoint to recognise the same input on resume.
struct InputHash: Sendable, Hashable {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Mixes in one line (its bytes, then a newline).
    mutating func add(line: Substring) {
        for byte in line.utf8 { mix(byte) }
        mix(0x0A)
    }

    private mutating func mix(_ byte: UInt8) {
        value ^= UInt64(byte)
        value = value &* 0x0000_0100_0000_01b3
    }
}
