import Foundation
import Testing

@testable import BinobanCore

/// The bytes the file storage writes and the bodies it reads back, checked against the record format built here
/// from its description (Decision 0250) with a bitwise CRC-32: the append path and the checksum may be made faster,
/// the files they leave must stay byte for byte the same.
@Suite("File event storage: stored records byte for byte")
struct StoredRecordBytesTests {
    /// CRC-32 (IEEE), one bit at a time: the definition, not the storage's code.
    private static func bitwiseCRC(_ bytes: Data) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 { crc = (crc & 1) == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1 }
        }
        return ~crc
    }

    /// One record: the payload's length and CRC-32, little-endian, then the payload.
    private static func record(_ payload: Data) -> Data {
        var bytes = Data()
        for value in [UInt32(payload.count), bitwiseCRC(payload)] {
            for shift in stride(from: 0, to: 32, by: 8) { bytes.append(UInt8(truncatingIfNeeded: value >> shift)) }
        }
        bytes.append(payload)
        return bytes
    }

    /// Events of sizes from 40 to 1 199 bytes (so every tail length after the 16-byte folding steps occurs).
    private static func events(_ range: Range<Int>) -> [Data] {
        range.map { TestEvents.event($0, bytes: 40 + ($0 * 37) % 1_160) }
    }

    @Test("Several batches from appends of many sizes, an oversize event among them: the files are the records")
    func filesAreTheRecords() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            var appended: [Data] = []
            var next = 0
            for count in [1, 700, 2_048, 3, 1_500] {
                var chunk = Self.events(next..<(next + count))
                next += count
                if count == 700 { chunk.insert(TestEvents.event(-1, bytes: 40_000), at: 350) }  // refused: oversize
                let report = try await storage.append(chunk)
                #expect(report.rejectedOversizeEvents == (count == 700 ? 1 : 0))
                appended += chunk.filter { $0.count < 32_000 }
            }
            try await storage.closeOpenBatch()
            let ids = try await storage.finishedBatches(limit: 100)
            #expect(ids.count > 3)
            var records = Data()
            var bodies: [Data] = []
            for id in ids {
                let file = try StorageFiles.contents(directory, StorageFiles.name("src", id.sequence))
                #expect(file.prefix(8) == Data("BNBEVT1\n".utf8))
                records.append(file.dropFirst(8))
                bodies.append(try #require(try await storage.read(id)).events)
            }
            #expect(records == appended.reduce(into: Data()) { $0.append(Self.record($1)) })
            // Each read body is its batch's payloads joined by commas; together, every stored event in order.
            let joined = bodies.map { body in Data(body) }.reduce(into: Data()) { all, body in
                if !all.isEmpty { all.append(UInt8(ascii: ",")) }
                all.append(body)
            }
            let expected = appended.reduce(into: Data()) { all, event in
                if !all.isEmpty { all.append(UInt8(ascii: ",")) }
                all.append(event)
            }
            #expect(joined == expected)
        }
    }
}
