import Foundation
import Testing

@testable import BinobanCore

@Suite("File event storage: durability levels")
struct BinobanFileDurabilityTests {
    @Test("The default survives a process crash; the level is reported")
    func defaultLevel() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            #expect(storage.durability == .survivesProcessCrash)
            let flushed = try BinobanFileEventStorage(
                directory: directory, namespace: "other", durability: .survivesPowerLoss)
            #expect(flushed.durability == .survivesPowerLoss)
        }
    }

    @Test(
        "Both levels write the same files, finish and recover a torn open batch the same way",
        arguments: BinobanFileDurability.allCases)
    func sameFilesAndRecovery(durability: BinobanFileDurability) async throws {
        try await withTemporaryDirectory { directory in
            let limits = BinobanStorageLimits(maxEventBytes: 500, maxBatchBytes: 1000, envelopeOverheadBytes: 100)
            var finishedFiles: [Data] = []
            do {
                let storage = try BinobanFileEventStorage(
                    directory: directory, limits: limits, namespace: "src", durability: durability)
                // 99-byte events, 9 to a batch: 20 events finish two batches and leave 2 in the open one.
                _ = try await storage.append(TestEvents.events(0..<20, bytes: 99))
                finishedFiles = try [1, 2].map { try StorageFiles.contents(directory, StorageFiles.name("src", $0)) }
                await storage.close()
            }
            // The process "ends" mid-record: half a record is left at the end of the open file.
            let openName = StorageFiles.name("src", 3, open: true)
            var open = try StorageFiles.contents(directory, openName)
            open.append(contentsOf: [0x40, 0, 0, 0, 1, 2])
            try StorageFiles.write(open, directory, openName)

            let reopened = try BinobanFileEventStorage(
                directory: directory, limits: limits, namespace: "src", durability: durability)
            #expect(
                reopened.recoveryReport
                    == BinobanStorageRecoveryReport(recoveredBatches: 2, repairedBatches: 1, discardedBytes: 6))
            #expect(try await TestEvents.storedIndices(reopened) == Array(0..<20))
            // Same bytes whatever the level: the level only decides whether the device is flushed.
            var expected = Data(BatchRecordFormat.magic)
            for event in TestEvents.events(0..<9, bytes: 99) {
                var record: [UInt8] = []
                BatchRecordFormat.appendRecord(event, to: &record)
                expected.append(contentsOf: record)
            }
            #expect(finishedFiles.first == expected)
            #expect(finishedFiles.count == 2)
        }
    }
}
