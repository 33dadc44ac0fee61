import Foundation
import TestSupport
import Testing

@testable import BinobanCore

@Suite("CRC-32 folded with the processor's carry-less multiply")
struct CRC32FoldingTests {
    /// Deterministic bytes: `(i × 31 + 7) mod 256`.
    private static func pattern(_ count: Int) -> [UInt8] {
        (0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ 7) }
    }

    @Test("Known values from zlib's crc32 for inputs the folding covers (64 bytes and more)")
    func zlibValues() {
        // Python: zlib.crc32(bytes(((i * 31 + 7) & 255) for i in range(n))).
        let expected: [(Int, UInt32)] = [
            (64, 0x84C8_6088), (65, 0x34E5_7BEC), (100, 0xB5A9_35FC), (370, 0xE5C2_E5EB), (1000, 0x8902_161E),
            (4096, 0x5D1C_4EE3),
        ]
        for (count, value) in expected {
            let bytes = Self.pattern(count)
            #expect(CRC32.checksum(bytes) == value, "\(count) bytes")
            #expect(bytes.withUnsafeBytes { CRC32.tableChecksum($0) } == value, "\(count) bytes, tables")
        }
    }

    @Test("The folded checksum equals the tables' at every length to 1 100 bytes and every alignment")
    func equalsTables() {
        var generator = SplitMix64(seed: 0x5EED)
        let bytes = (0..<1_200).map { _ in UInt8(truncatingIfNeeded: generator.next()) }
        bytes.withUnsafeBytes { all in
            for start in 0..<16 {
                for length in 0...1_100 {
                    let slice = UnsafeRawBufferPointer(rebasing: all[start..<(start + length)])
                    let folded = CRC32.checksum(slice)
                    let tables = CRC32.tableChecksum(slice)
                    if folded != tables {
                        Issue.record("start \(start), length \(length): \(folded) != \(tables)")
                        return
                    }
                }
            }
        }
    }

    #if os(Linux) && arch(x86_64)
    @Test("Linux x86-64 folds in hardware (every x86-64 processor since 2010 has PCLMULQDQ and SSE4.1)")
    func foldsHere() {
        #expect(CRC32.foldsInHardware)
    }
    #endif
}
