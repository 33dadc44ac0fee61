/// CRC-32 (IEEE 802.3, reflected polynomial `0xEDB88320`), the checksum of each stored event record.
///
/// Computed with the slicing-by-8 method: eight 256-entry tables let the loop consume eight bytes per step.
/// `CRC32.checksum(Array("123456789".utf8)) == 0xCBF43926`.
enum CRC32 {
    /// Eight tables of 256 entries, one after the other: entry `k * 256 + b` is the CRC contribution of byte `b`
    /// followed by `k` zero bytes.
    private static let table: [UInt32] = {
        var table = [UInt32](repeating: 0, count: 8 * 256)
        for index in 0..<256 {
            var value = UInt32(index)
            for _ in 0..<8 {
                value = (value & 1) == 1 ? (value >> 1) ^ 0xEDB8_8320 : value >> 1
            }
            table[index] = value
        }
        for level in 1..<8 {
            for index in 0..<256 {
                let previous = table[(level - 1) * 256 + index]
                table[level * 256 + index] = (previous >> 8) ^ table[Int(previous & 0xFF)]
            }
        }
        return table
    }()

    /// The checksum of `bytes`.
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        guard let base = bytes.baseAddress else { return 0 }
        return Self.table.withUnsafeBufferPointer { table in
            var offset = 0
            let count = bytes.count
            while count - offset >= 8 {
                let low =
                    UInt32(base.load(fromByteOffset: offset, as: UInt8.self))
                    | UInt32(base.load(fromByteOffset: offset + 1, as: UInt8.self)) << 8
                    | UInt32(base.load(fromByteOffset: offset + 2, as: UInt8.self)) << 16
                    | UInt32(base.load(fromByteOffset: offset + 3, as: UInt8.self)) << 24
                let high =
                    UInt32(base.load(fromByteOffset: offset + 4, as: UInt8.self))
                    | UInt32(base.load(fromByteOffset: offset + 5, as: UInt8.self)) << 8
                    | UInt32(base.load(fromByteOffset: offset + 6, as: UInt8.self)) << 16
                    | UInt32(base.load(fromByteOffset: offset + 7, as: UInt8.self)) << 24
                let mixed = crc ^ low
                crc =
                    table[7 * 256 + Int(mixed & 0xFF)] ^ table[6 * 256 + Int((mixed >> 8) & 0xFF)]
                    ^ table[5 * 256 + Int((mixed >> 16) & 0xFF)] ^ table[4 * 256 + Int(mixed >> 24)]
                    ^ table[3 * 256 + Int(high & 0xFF)] ^ table[2 * 256 + Int((high >> 8) & 0xFF)]
                    ^ table[1 * 256 + Int((high >> 16) & 0xFF)] ^ table[Int(high >> 24)]
                offset += 8
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
