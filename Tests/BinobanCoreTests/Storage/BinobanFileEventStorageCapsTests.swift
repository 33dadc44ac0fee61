import Foundation
import Testing

@testable import BinobanCore

@Suite("File event storage: caps through a long outage")
struct BinobanFileEventStorageCapsTests {
    /// 99-byte events, 9 to a batch (see the rollover boundary test).
    private static let smallBatches = BinobanStorageLimits(
        maxEventBytes: 500, maxBatchBytes: 1000, envelopeOverheadBytes: 100)

    @Test("30 batches with a cap of 20: the 10 oldest are deleted and their events reported")
    func fileCountCap() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(
                directory: directory, limits: Self.smallBatches, namespace: "src")
            // 271 events: 30 full batches of 9 are finished, the 271st opens the 31st.
            var total = BinobanStorageWriteReport()
            for start in stride(from: 0, to: 271, by: 50) {
                let report = try await storage.append(TestEvents.events(start..<min(start + 50, 271), bytes: 99))
                total.storedEvents += report.storedEvents
                total.evictedBatches += report.evictedBatches
                total.evictedEvents += report.evictedEvents
            }
            #expect(total == BinobanStorageWriteReport(storedEvents: 271, evictedBatches: 10, evictedEvents: 90))

            let ids = try await storage.finishedBatches(limit: 100)
            #expect(ids.map(\.sequence) == Array(11...30))
            #expect(try await TestEvents.storedIndices(storage) == Array(90..<270))
            let names = try StorageFiles.names(directory)
            #expect(names.filter { $0.hasSuffix(".batch") }.count == 20)
            #expect(names.filter { $0.hasSuffix(".open") } == [StorageFiles.name("src", 31, open: true)])
        }
    }

    @Test("The 5 MB cap with near-limit events: oldest batches go, kept files stay within 5 000 000 bytes")
    func byteCap() async throws {
        try await withTemporaryDirectory { directory in
            let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
            // 30 000-byte events: 16 fill a batch (about 480 KB); 480 events make 30 batches, about 14 MB.
            var total = BinobanStorageWriteReport()
            for start in stride(from: 0, to: 480, by: 32) {
                let report = try await storage.append(TestEvents.events(start..<(start + 32), bytes: 30_000))
                total.storedEvents += report.storedEvents
                total.evictedBatches += report.evictedBatches
                total.evictedEvents += report.evictedEvents
            }
            let closing = try await storage.closeOpenBatch()  // a close reports the evictions it made
            total.evictedBatches += closing.evictedBatches
            total.evictedEvents += closing.evictedEvents

            let batchFiles = try StorageFiles.names(directory).filter { $0.hasSuffix(".batch") }
            let bytesOnDisk = try batchFiles.reduce(0) { $0 + (try StorageFiles.contents(directory, $1).count) }
            #expect(bytesOnDisk <= 5_000_000)
            #expect(bytesOnDisk > 5_000_000 - 500_000)  // no more evicted than needed
            let kept = try await TestEvents.storedIndices(storage)
            #expect(total.storedEvents == 480)
            #expect(total.evictedBatches == 30 - batchFiles.count)
            #expect(total.evictedEvents + kept.count == 480)
            #expect(kept == Array((480 - kept.count)..<480))  // the newest survive, in order
        }
    }

    @Test("Batches over the caps at open are evicted then, and reported by the next append")
    func evictionAtOpenIsReported() async throws {
        try await withTemporaryDirectory { directory in
            do {
                let storage = try BinobanFileEventStorage(directory: directory, namespace: "src")
                for index in 0..<5 {
                    _ = try await storage.append(TestEvents.events((index * 3)..<(index * 3 + 3)))
                    try await storage.closeOpenBatch()
                }
                await storage.close()
            }
            let limits = BinobanStorageLimits(maxFinishedBatches: 2)
            let reopened = try BinobanFileEventStorage(directory: directory, limits: limits, namespace: "src")
            #expect(reopened.recoveryReport.recoveredBatches == 5)
            #expect(try await reopened.finishedBatches(limit: 20).map(\.sequence) == [4, 5])
            let report = try await reopened.append([TestEvents.event(15)])
            #expect(
                report
                    == BinobanStorageWriteReport(
                        storedEvents: 1, evictedBatches: 3, evictedEvents: 9,
                        evictedBatchEvents: [.init(sequence: 1): 3, .init(sequence: 2): 3, .init(sequence: 3): 3]
                    ).placing((6, 1)))
            let next = try await reopened.append([TestEvents.event(16)])
            #expect(next == BinobanStorageWriteReport(storedEvents: 1).placing((6, 1)))
        }
    }

    @Test("A refusing append stores what fits, refuses the rest and deletes nothing; an empty storage takes one")
    func refuseWhenFull() async throws {
        try await withTemporaryDirectory { directory in
            let limits = BinobanStorageLimits(
                maxEventBytes: 500, maxBatchBytes: 1000, envelopeOverheadBytes: 100, maxFinishedBatches: 2)
            let storage = try BinobanFileEventStorage(directory: directory, limits: limits, namespace: "src")
            let report = try await storage.append(TestEvents.events(0..<200), whenFull: .refuse)
            #expect(report.storedEvents > 0)
            #expect(report.refusedEvents == 200 - report.storedEvents)
            #expect(report.evictedBatches == 0)
            try await storage.closeOpenBatch()
            let held = try await TestEvents.storedIndices(storage)
            #expect(held == Array(0..<report.storedEvents))
            // Full: nothing more fits, and nothing held is deleted.
            let again = try await storage.append([TestEvents.event(500)], whenFull: .refuse)
            #expect(again == BinobanStorageWriteReport(refusedEvents: 1))
            #expect(try await TestEvents.storedIndices(storage) == held)
            // Evicting instead makes room by deleting the oldest batch, named in the report.
            let evicting = try await storage.append([TestEvents.event(501)], whenFull: .evictOldest)
            #expect(evicting.storedEvents == 1)
            // The close finishes a third batch and evicts the oldest; it reports it by name.
            let closing = try await storage.closeOpenBatch()
            #expect(closing.evictedBatchEvents.keys.contains(BinobanBatchID(sequence: 1)))
            #expect(closing.evictedBatches == closing.evictedBatchEvents.count)
        }
    }
}
