import BinobanCoreTesting
import Testing

@testable import BinobanCore

/// The machine's books for what the storage finds (left by earlier runs) and loses (files deleted under it).
@Suite("Pipeline machine: found and lost stored events")
struct PipelineMachineStorageBookTests {
    typealias Instant = ManualClock.Instant
    private let b1 = BinobanBatchID(sequence: 1)
    private let b2 = BinobanBatchID(sequence: 2)

    private func machine() -> PipelineMachine<Instant> {
        let rules = PipelineRules(
            maxFilesPerFlush: 20, maxRetries: 0,
            backoff: BackoffSchedule(baseMillis: 1000, factor: 2, maxMillis: 60_000), retryAfterLimit: .seconds(600),
            maxConcurrentUploads: 1, backpressure: .dropOldest, hasTransport: true)
        return PipelineMachine(
            rules: rules, settings: .init(enabled: true, flushAt: 1000, flushInterval: .seconds(3600)))
    }

    private func storageReports(_ actions: [PipelineAction]) -> [Int] {
        actions.compactMap { action in
            guard case .report(let kind, _, let count, _, _, _) = action, kind == .storage else { return nil }
            return count
        }
    }

    @Test(
        "What the storage found at open is queued and recovered before the first listing; its upload empties the queue")
    func foundAtOpen() {
        var machine = machine()
        let now = Instant(offset: .zero)
        _ = machine.handle(.storageFound(events: 30, bytes: 3_028), at: now)
        #expect(machine.statistics.recoveredEvents == 30)
        #expect(machine.statistics.queuedEvents == 30)
        #expect(machine.statistics.queuedBytes == 3_028)
        #expect(machine.oldestQueuedAt == now)
        #expect(machine.handle(.started, at: now) == [.list(limit: 20)])
        #expect(machine.handle(.listed([b1]), at: now) == [.read(b1)])
        #expect(machine.handle(.read(b1, eventCount: 30, bytes: 3_028), at: now) == [.send(b1)])
        _ = machine.handle(.answered(b1, status: 200, retryAfter: nil, jitter: 0), at: now)
        #expect(machine.statistics.queuedEvents == 0)
        #expect(machine.statistics.uploadedEvents == 30)
    }

    @Test(
        "Lost batches not in flight are storage failures at once, reported with their number; one in flight counts only if not delivered"
    )
    func lost() {
        for status in [200, 500] {
            var machine = machine()
            let now = Instant(offset: .zero)
            _ = machine.handle(.storageFound(events: 9, bytes: 90), at: now)
            _ = machine.handle(.started, at: now)
            _ = machine.handle(.listed([b1, b2]), at: now)
            _ = machine.handle(.read(b1, eventCount: 5, bytes: 50), at: now)  // b1 is being sent, b2 waits
            var report = BinobanStorageWriteReport()
            report.lostBatchEvents = [b1: 5, b2: 4]
            let listed = machine.handle(.listed([], closed: report), at: now)
            #expect(storageReports(listed) == [4])
            #expect(machine.statistics.dropped.storageFailure == 4)
            #expect(machine.statistics.queuedEvents == 5)
            #expect(!machine.work.contains { $0.id == b2 })
            _ = machine.handle(.answered(b1, status: status, retryAfter: nil, jitter: 0), at: now)
            #expect(machine.statistics.queuedEvents == 0)
            if status == 200 {
                #expect(machine.statistics.uploadedEvents == 5)
                #expect(machine.statistics.dropped.total == 4)
            } else {
                #expect(machine.statistics.uploadedEvents == 0)
                #expect(machine.statistics.dropped.total == 9)
            }
            let books = machine.statistics
            #expect(books.recoveredEvents == books.queuedEvents + books.uploadedEvents + books.dropped.total)
        }
    }
}
