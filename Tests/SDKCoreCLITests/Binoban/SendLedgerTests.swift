import BinobanCore
import Foundation
import Synchronization
import Testing

@testable import sdkcore

@Suite("sdkcore binoban send: the ledger that follows lines to the storage")
struct SendLedgerTests {
    /// A storage that stores the first `storedBeforeFailure` events of its `failingAppend`-th append and then
    /// fails; every other append stores everything.
    struct FailingStorage: BinobanEventStorage {
        let base = InMemoryEventStorage()
        let failingAppend: Int
        let storedBeforeFailure: Int
        let appends = Counter()

        final class Counter: Sendable {
            let value = Mutex(0)
            func next() -> Int {
                value.withLock {
                    $0 += 1
                    return $0
                }
            }
        }

        func append(_ events: [Data], whenFull: BinobanStorageFullBehaviour) async throws -> BinobanStorageWriteReport {
            try await base.append(events, whenFull: whenFull)
        }

        func appendReportingProgress(
            _ events: [Data], whenFull: BinobanStorageFullBehaviour
        ) async -> Result<BinobanStorageWriteReport, BinobanStorageAppendFailure> {
            guard appends.next() == failingAppend else {
                return await base.appendReportingProgress(events, whenFull: whenFull)
            }
            _ = try? await base.append(Array(events.prefix(storedBeforeFailure)), whenFull: whenFull)
            return .failure(
                BinobanStorageAppendFailure(
                    storedEventsBeforeFailure: storedBeforeFailure, error: CocoaError(.fileWriteOutOfSpace)))
        }

        func closeOpenBatch() async throws -> BinobanStorageWriteReport { try await base.closeOpenBatch() }
        func finishedBatches(limit: Int) async throws -> [BinobanBatchID] {
            try await base.finishedBatches(limit: limit)
        }
        func read(_ batch: BinobanBatchID) async throws -> BinobanStoredBatch? { try await base.read(batch) }
        func remove(_ batch: BinobanBatchID) async throws { try await base.remove(batch) }
    }

    static func events(_ count: Int) -> [Data] { (0..<count).map { Data(#"{"i":\#($0)}"#.utf8) } }

    @Test func anAppendThatFailsPartWayHoldsTheCheckpointBeforeTheLostLinesAndLaterLinesStillLineUp() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("ledger-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let checkpoint = SendCheckpoint(directory: directory, namespace: "S")
        let ledger = SendLedger(checkpoint: checkpoint)
        for line in 1...10 { ledger.register(line: line, hashThroughLine: UInt64(line)) }
        let storage = LedgerStorage(
            base: FailingStorage(failingAppend: 2, storedBeforeFailure: 2), ledger: ledger)

        // Lines 1-3 are stored: the checkpoint covers them.
        _ = await storage.appendReportingProgress(Self.events(3), whenFull: .evictOldest)
        #expect(try checkpoint.load() == SendCheckpoint.Position(linesStored: 3, inputHash: 3))
        // Lines 4-7: 4 and 5 are stored, 6 and 7 are lost. The checkpoint moves to line 5 and stays there.
        _ = await storage.appendReportingProgress(Self.events(4), whenFull: .evictOldest)
        #expect(try checkpoint.load() == SendCheckpoint.Position(linesStored: 5, inputHash: 5))
        #expect(ledger.checkpointHeld)
        // Lines 8-10 are stored; they are not taken for the lost lines 6 and 7, and the checkpoint does not pass
        // the lost lines, so the next run sends 6 and everything after it again.
        _ = await storage.appendReportingProgress(Self.events(3), whenFull: .evictOldest)
        #expect(try checkpoint.load() == SendCheckpoint.Position(linesStored: 5, inputHash: 5))
        let counts = ledger.counts
        #expect(counts.stored == 8)
        #expect(counts.unstored == 2)
        #expect(counts.accepted == 10)
        // Nothing is left outstanding: a wait for room returns at once.
        await ledger.waitUntilOutstanding(below: 1)
    }

    @Test func appendsThatSucceedMoveTheCheckpointToTheLastHandledLine() async throws {
        let ledger = SendLedger(checkpoint: nil)
        for line in 1...4 { ledger.register(line: line, hashThroughLine: UInt64(line)) }
        ledger.confirm(BinobanStorageWriteReport(storedEvents: 3, rejectedOversizeEvents: 1))
        #expect(!ledger.checkpointHeld)
        #expect(ledger.counts.stored == 3)
        #expect(ledger.counts.oversize == 1)
        await ledger.waitUntilOutstanding(below: 1)
    }
}
