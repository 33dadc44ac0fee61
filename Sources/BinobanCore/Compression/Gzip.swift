/// Wraps DEFLATE output in a gzip member (RFC 1952), as `Content-Encoding: gzip` expects.
enum Gzip {
    /// The gzip member holding `input`: a 10-byte header (no name, no modification time), the DEFLATE
    /// stream, then the CRC-32 (the storage's ``CRC32``) and the length modulo 2³².
    static func compress(_ input: UnsafeBufferPointer<UInt8>) -> [UInt8] {
        var writer = BitWriter(capacity: input.count / 4 + 64)
        // ID1 ID2, CM = 8 (deflate), FLG = 0, MTIME = 0, XFL = 0, OS = 255 (unknown).
        for byte: UInt8 in [0x1F, 0x8B, 8, 0, 0, 0, 0, 0, 0, 255] { writer.write(UInt32(byte), width: 8) }
        DeflateEncoder.compress(input, into: &writer)
        let crc = CRC32.checksum(UnsafeRawBufferPointer(input))
        let size = UInt32(truncatingIfNeeded: input.count)
        for value in [crc, size] { writer.write(value, width: 32) }
        writer.alignToByte()
        return writer.bytes
    }

    /// The gzip member holding `input`.
    static func compress(_ input: [UInt8]) -> [UInt8] {
        input.withUnsafeBufferPointer { compress($0) }
    }
}
