#if canImport(CCRC32)
import CCRC32
#endif

/// CRC-32 (IEEE 802.3, reflected polynomial `0xEDB88320`), the checksum of each stored event record.
///
/// Every record is checksummed when written and again when read, both on the pipeline loop's thread, so this was
/// a quarter of the loop's CPU time per event in a burst. On Linux x86-64 with PCLMULQDQ the bulk of the bytes (a
/// multiple of 16, from 64 bytes on) is folded with carry-less multiplication (the `CCRC32` shim, Decision 0260),
/// several times faster; the tail, short inputs and every other platform use the tables below, with the
/// slicing-by-16 method: sixteen 256-entry tables (16 KiB) let the loop consume sixteen bytes, read as two
/// little-endian words, per step. Both give the same value: `CRC32.checksum(Array("123456789".utf8)) == 0xCBF43926`.
enum CRC32 {
    /// Sixteen tables of 256 entries, one after the other: entry `k * 256 + b` is the CRC contribution of byte `b`
    /// followed by `k` zero bytes.
    private static let table: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 16 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 {
                value = (value & 1) == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
            }
            table[index] = value
        }
        for level in 1..<16 {
            for index in 0..<256 {
                let previous = table[(level - 1) * 256 + index]
                table[level * 256 + index] = (previous >> 8) ^ table[Int(previous & 0xFF)]
            }
        }
        return table
    }()

    /// The checksum of `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return 0 }
        var crc: UInt32 = 0xFFFF_FFFF
        #if canImport(CCRC32)
        let folded = ccrc32_fold(&crc, base, bytes.count)
        #else
        let folded = 0
        #endif
        return tableChecksum(base, from: folded, to: bytes.count, state: crc)
    }

    /// The checksum of `bytes` from the tables alone (what `checksum(_:)` gives where the processor cannot
    /// fold).
    static func tableChecksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return 0 }
        return tableChecksum(base, from: 0, to: bytes.count, state: 0xFFFF_FFFF)
    }

    /// Whether `checksum(_:)` folds with the processor's carry-less multiply here.
    static var foldsInHardware: Bool {
        #if canImport(CCRC32)
        return ccrc32_available() != 0
        #else
        return false
        #endif
    }

    /// Goes on from the running register `state` over `base[start..<count]` with the tables, and finishes the CRC.
    private static func tableChecksum(_ base: UnsafeRawPointer, from start: Int, to count: Int, state: UInt32) -> UInt32
    {
        var crc = state
        return Self.table.withUnsafeBufferPointer { table in
            var offset = start
            while count - offset >= 16 {
                // The first word absorbs the running CRC; byte i of the step looks up table 15 − i.
                let first =
                    UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self)) ^ UInt64(crc)
                let second = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset + 8, as: UInt64.self))
                crc =
                    table[15 * 256 + Int(first & 0xFF)] ^ table[14 * 256 + Int((first >> 8) & 0xFF)]
                    ^ table[13 * 256 + Int((first >> 16) & 0xFF)] ^ table[12 * 256 + Int((first >> 24) & 0xFF)]
                    ^ table[11 * 256 + Int((first >> 32) & 0xFF)] ^ table[10 * 256 + Int((first >> 40) & 0xFF)]
                    ^ table[9 * 256 + Int((first >> 48) & 0xFF)] ^ table[8 * 256 + Int(first >> 56)]
                    ^ table[7 * 256 + Int(second & 0xFF)] ^ table[6 * 256 + Int((second >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((second >> 16) & 0xFF)] ^ table[4 * 256 + Int((second >> 24) & 0xFF)]
                    ^ table[3 * 256 + Int((second >> 32) & 0xFF)] ^ table[2 * 256 + Int((second >> 40) & 0xFF)]
                    ^ table[1 * 256 + Int((second >> 48) & 0xFF)] ^ table[Int(second >> 56)]
                offset += 16
            }
            while offset < count {
                let byte = base.load(fromByteOffset: offset, as: UInt8.self)
                crc = table[Int((crc ^ UInt32(byte)) & 0xFF)] ^ (crc >> 8)
                offset += 1
            }
            return crc ^ 0xFFFF_FFFF
        }
    }

    /// The checksum of `bytes`.
    static func checksum(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { checksum($0) }
    }
}
