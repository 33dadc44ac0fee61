import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

private let b1 = BinobanBatchID(sequence: 1)
private let b2 = BinobanBatchID(sequence: 2)
private let b3 = BinobanBatchID(sequence: 3)

private func report(_ runs: [(BinobanBatchID, Int)]) -> BinobanStorageWriteReport {
    var report = BinobanStorageWriteReport(storedEvents: runs.reduce(0) { $0 + $1.1 })
    for (batch, count) in runs { report.recordPlacement(of: count, in: batch) }
    return report
}

@Suite("Queue ledger: this run's events in storage, by batch")
struct QueueLedgerTests {
    @Test("Each batch takes exactly its own events and bytes when it leaves; an unknown one takes nothing")
    func exactByBatch() {
        var ledger = QueueLedger()
        _ = ledger.stored(report([(b1, 2), (b2, 3)]), bytes: 55, placedBytes: [20, 35])
        #expect(ledger.queued == .init(events: 5, bytes: 55))
        #expect(ledger.left(b2, events: 3) == .init(events: 3, bytes: 35))
        // A previous run's batch: nothing of this run's.
        #expect(ledger.left(BinobanBatchID(sequence: 0), events: 9) == .init())
        #expect(ledger.left(b1, events: 2) == .init(events: 2, bytes: 20))
        #expect(ledger.queued == .init())
        // A batch leaves once.
        #expect(ledger.left(b1, events: 2) == .init())
    }

    @Test("Events placed in a batch that already left leave at once; older unknown batches are forgotten")
    func lateReport() {
        var ledger = QueueLedger()
        #expect(ledger.left(b2, events: 4) == .init())
        let early = ledger.stored(report([(b2, 4), (b3, 1)]), bytes: 50, placedBytes: [40, 10])
        #expect(early == .init(events: 4, bytes: 40))
        #expect(ledger.queued == .init(events: 1, bytes: 10))
    }

    @Test("Without placements, bytes are shared out by events and batches take from the unplaced events")
    func unplaced() {
        var ledger = QueueLedger()
        _ = ledger.stored(BinobanStorageWriteReport(storedEvents: 4), bytes: 41, placedBytes: [])
        #expect(ledger.left(b1, events: 3) == .init(events: 3, bytes: 30))
        #expect(ledger.leftUnnamed(events: 5) == .init(events: 1, bytes: 11))
        #expect(ledger.queued == .init())
        // Placements without their bytes: shared out by events, the last run taking the remainder.
        var shared = QueueLedger()
        _ = shared.stored(report([(b1, 1), (b2, 2)]), bytes: 31, placedBytes: [])
        #expect(shared.left(b2, events: 2) == .init(events: 2, bytes: 21))
        #expect(shared.queued == .init(events: 1, bytes: 10))
        #expect(shared.left(b1, events: 1) == .init(events: 1, bytes: 10))
        #expect(shared.queued == .init())
    }
}
