/// Packs DEFLATE's bit fields, least significant bit first, into bytes (RFC 1951 §3.1.1).
struct BitWriter {
    private(set) var bytes: [UInt8]
    private var buffer: UInt64 = 0
    private var count = 0

    init(capacity: Int) {
        bytes = []
        bytes.reserveCapacity(capacity)
    }

    /// Appends the low `width` bits of `bits` (`width` at most 32).
    @inline(__always)
    mutating func write(_ bits: UInt32, width: Int) {
        buffer |= UInt64(bits) << UInt64(count)
        count += width
        if count >= 32 {
            let word = UInt32(truncatingIfNeeded: buffer)
            bytes.append(UInt8(truncatingIfNeeded: word))
            bytes.append(UInt8(truncatingIfNeeded: word >> 8))
            bytes.append(UInt8(truncatingIfNeeded: word >> 16))
            bytes.append(UInt8(truncatingIfNeeded: word >> 24))
            buffer >>= 32
            count -= 32
        }
    }

    /// Pads with zero bits to the next byte boundary.
    mutating func alignToByte() {
        while count > 0 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            count = max(0, count - 8)
        }
        buffer = 0
    }

    /// Appends whole bytes; the writer must be byte-aligned.
    mutating func appendAligned(_ raw: UnsafeBufferPointer<UInt8>) {
        bytes.append(contentsOf: raw)
    }
}
