/// A running FNV-1a hash of the input lines, recorded with a checkpoint to recognise the same input on resume.
///
/// A line contributes its bytes (without the newline and a trailing `\r`), then a newline. A line longer than
/// the tool keeps is hashed as it streams past: its bytes other than `\r`, then a newline.
struct InputHash: Sendable, Hashable {
    private(set) var value: UInt64 = 0xcbf2_9ce4_8422_2325

    /// Mixes in one whole line (its bytes, then a newline).
    mutating func add(line: ArraySlice<UInt8>) {
        var value = self.value
        line.withUnsafeBufferPointer { bytes in
            for byte in bytes { value = Self.mixing(byte, into: value) }
        }
        self.value = Self.mixing(0x0A, into: value)
    }

    /// Mixes in a piece of a line that is too long to keep; ``endLine()`` ends it.
    mutating func add(partOfLongLine part: ArraySlice<UInt8>) {
        var value = self.value
        part.withUnsafeBufferPointer { bytes in
            for byte in bytes where byte != 0x0D { value = Self.mixing(byte, into: value) }
        }
        self.value = value
    }

    /// Ends a line given with ``add(partOfLongLine:)``.
    mutating func endLine() {
        value = Self.mixing(0x0A, into: value)
    }

    @inline(__always)
    private static func mixing(_ byte: UInt8, into value: UInt64) -> UInt64 {
        (value ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
}
