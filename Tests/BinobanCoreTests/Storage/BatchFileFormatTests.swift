import Foundation
import Testing

@testable import BinobanCore

@Suite("Batch file naming, record format and checksum")
struct BatchFileFormatTests {
    @Test("CRC-32 matches the standard check value and a bytewise reference at every length")
    func checksum() {
        #expect(CRC32.checksum(Array("123456789".utf8)) == 0xCBF4_3926)
        #expect(CRC32.checksum([]) == 0)
        func reference(_ bytes: [UInt8]) -> UInt32 {
            var crc: UInt32 = 0xFFFF_FFFF
            for byte in bytes {
                crc ^= UInt32(byte)
                for _ in 0..<8 {
                    crc = (crc & 1) == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
                }
            }
            return ~crc
        }
        let bytes = (0..<100).map { UInt8(truncatingIfNeeded: $0 &* 151 &+ 7) }
        for length in 0...bytes.count {
            #expect(CRC32.checksum(Array(bytes.prefix(length))) == reference(Array(bytes.prefix(length))))
        }
    }

    @Test("File names round-trip and sort like their sequences")
    func namesRoundTrip() {
        let name = BatchFileName(sequence: 42, state: .open).fileName(namespace: "src")
        #expect(name == "src-00000000000000000042.open")
        #expect(BatchFileName(parsing: name, namespace: "src") == BatchFileName(sequence: 42, state: .open))
        let largest = BatchFileName(sequence: BatchFileName.maximumSequence, state: .finished).fileName(namespace: "n")
        #expect(BatchFileName(parsing: largest, namespace: "n")?.sequence == BatchFileName.maximumSequence)
        #expect(largest == "n-09223372036854775807.batch")
        #expect(
            BatchFileName(sequence: 0, state: .finished).fileName(namespace: "a.b") == "a.b-00000000000000000000.batch")
        #expect(BatchFileName(sequence: .max, state: .open).fileName(namespace: "x") == "x-18446744073709551615.open")
        #expect(
            BatchFileName(sequence: 9, state: .finished).fileName(namespace: "s")
                < BatchFileName(sequence: 10, state: .finished).fileName(namespace: "s"))
    }

    @Test(
        "Names of anything else are not recognised",
        arguments: [
            "notes.txt", "src-3.batch", "src-00000000000000000003.tmp", "src-00000000000000000003.batch.bak",
            "src-1-00000000000000000003.batch", "SRC-00000000000000000003.batch", "src-0000000000000000000x.batch",
            "src-99999999999999999999.batch", "src-00000000000000000003", "xsrc-00000000000000000003.batch",
            "src-000000000000000000003.batch", "src-18446744073709551614.batch", "src-18446744073709551615.open",
            "src-09223372036854775808.batch",
        ])
    func foreignNames(_ name: String) {
        #expect(BatchFileName(parsing: name, namespace: "src") == nil)
    }

    @Test("A scan keeps the intact prefix and reports its body size")
    func scan() {
        var file = BatchRecordFormat.magic
        BatchRecordFormat.appendRecord(Data(#"{"a":1}"#.utf8), to: &file)
        BatchRecordFormat.appendRecord(Data(#"{}"#.utf8), to: &file)
        let intact = file.count
        file += [5, 0, 0, 0, 1, 2]
        let result = file.withUnsafeBytes { BatchRecordFormat.scan($0) }
        #expect(result == BatchRecordFormat.Scan(hasMagic: true, intactBytes: intact, eventCount: 2, bodyBytes: 10))
        let body = file.withUnsafeBytes { BatchRecordFormat.body(of: $0) }
        #expect(String(decoding: body.events, as: UTF8.self) == #"{"a":1},{}"#)
        let noMagic = Array("BNBEVT2\n".utf8).withUnsafeBytes { BatchRecordFormat.scan($0) }
        #expect(noMagic == BatchRecordFormat.Scan(hasMagic: false, intactBytes: 0, eventCount: 0, bodyBytes: 0))
    }
}
