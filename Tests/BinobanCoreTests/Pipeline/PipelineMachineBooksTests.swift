import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

private let b1 = BinobanBatchID(sequence: 1)
private let b2 = BinobanBatchID(sequence: 2)

/// Whether the statistics account for every event: the identity ``BinobanStatistics`` documents.
private func booksClose(_ stats: BinobanStatistics) -> Bool {
    stats.acceptedEvents + stats.recoveredEvents
        == stats.heldEvents + stats.queuedEvents + stats.uploadedEvents + stats.dropped.total
}

private func notices(_ actions: [PipelineAction]) -> [DeliveryNotice] {
    actions.compactMap { if case .deliver(let notice) = $0 { notice } else { nil } }
}

private func reportCounts(_ actions: [PipelineAction], _ kind: BinobanError.Kind) -> [Int] {
    actions.compactMap { if case .report(kind, _, let count, _, _, _) = $0 { count } else { nil } }
}

extension MachineRig {
    /// Takes a drain of `count` accepted events (closing the intake when `closed`) and returns the actions.
    fileprivate mutating func drain(_ count: Int, closed: Bool = false) -> [PipelineAction] {
        #expect(feed(.intakeHasWork) == [.takeDrain])
        var drain = PipelineDrain()
        drain.eventCount = count
        drain.acceptedEvents = count
        drain.closed = closed
        return feed(.drained(drain))
    }

    /// Stops with the shutdown `deadline` (milliseconds), the intake closed and empty.
    fileprivate mutating func stop(deadline milliseconds: Int64) {
        _ = feed(.stop(deadline: Instant(offset: .milliseconds(milliseconds))))
        _ = drain(0, closed: true)
    }
}

/// The machine's books close on the paths where events left the count unseen: an append that failed after
/// storing part of its chunk, and batches the shutdown deadline takes out of the upload work.
@Suite("Pipeline machine books")
struct PipelineMachineBooksTests {
    @Test("An append that fails part-way queues what it stored and drops only what it lost")
    func partialWriteFailureQueuesTheStoredPart() {
        var rig = MachineRig(flushAt: 100)
        rig.startEmpty()
        rig.machine.namesEvents = true
        #expect(rig.drain(4) == [.write(.refuse)])
        let actions = rig.feed(
            .writeFailed(
                lost: 1, moreInDrain: false, message: "disk full", stored: .init(storedEvents: 3), storedBytes: 30))
        var stats = rig.machine.statistics
        #expect(stats.storedEvents == 3)
        #expect(stats.queuedEvents == 3)
        #expect(stats.queuedBytes == 30)
        #expect(stats.dropped.storageFailure == 1)
        #expect(reportCounts(actions, .storage) == [1])
        #expect(notices(actions) == [DeliveryNotice(outcome: .dropped(.storageFailure), eventCount: 1, events: .lost)])
        #expect(rig.machine.oldestQueuedAt == rig.now)
        #expect(booksClose(stats))
        // The stored part is uploaded with its batch, and leaves the queue with it.
        _ = rig.feed(.intakeHasWork)
        #expect(rig.feed(.drained(PipelineDrain(tickets: [.init(waiterID: 1)]))).contains(.list(limit: 20)))
        #expect(rig.feed(.listed([b1])) == [.read(b1)])
        #expect(rig.readAndSend(b1, events: 3) == [.send(b1)])
        _ = rig.feed(.answered(b1, status: 200, retryAfter: nil, jitter: 0))
        _ = rig.feed(.removed(b1))
        stats = rig.machine.statistics
        #expect(stats.uploadedEvents == 3)
        #expect(stats.queuedEvents == 0)
        #expect(stats.queuedBytes == 0)
        #expect(booksClose(stats))
    }

    @Test("The write stage tells the machine how many events a failed append stored, with their bytes")
    func writeStageReportsTheStoredPartOfAFailedAppend() {
        struct DiskFault: Error {}
        let intake = EventIntake(
            identity: IdentityState(anonymousId: "a", userId: nil, traits: [:], deviceToken: nil, deviceId: "d"),
            persistIdentity: false, capacity: 100, overflow: .dropOldest,
            settings: .init(enabled: true, flushAt: 20, flushInterval: .seconds(30)))
        let random = SeededRandomSource(seed: 9)
        for index in 0..<4 {
            let messageId = MessageID.random(from: random)
            intake.accept { _ in
                PendingEvent(
                    kind: .track, name: String(repeating: "e", count: index + 1), payload: [:], messageId: messageId,
                    timestampMillis: 0, anonymousId: "a", userId: nil, deviceToken: nil)
            }
        }
        var buffer = WriteStageBuffer(
            encoder: EventEncoder(context: BinobanStaticContext(), deviceId: nil), intake: intake)
        _ = buffer.take()
        let chunk = buffer.nextChunk()
        #expect(chunk.count == 4)
        let input: PipelineInput<ManualClock.Instant> = buffer.written(
            .failure(BinobanStorageAppendFailure(storedEventsBeforeFailure: 3, error: DiskFault())))
        guard case .writeFailed(let lost, let more, _, let stored, let storedBytes, let placedBytes) = input else {
            Issue.record("not a failed write: \(input)")
            return
        }
        #expect(lost == 1)
        #expect(!more)
        #expect(stored == BinobanStorageWriteReport(storedEvents: 3))
        #expect(storedBytes == chunk.prefix(3).reduce(0) { $0 + $1.count })
        #expect(placedBytes.isEmpty)
        #expect(buffer.chunk.isEmpty)
    }

    @Test("Events a failed append stored unplaced leave the queue with the placed batch they went to")
    func unplacedStoredPartLeavesWithItsBatch() {
        var rig = MachineRig(flushAt: 100)
        rig.startEmpty()
        var placed = BinobanStorageWriteReport(storedEvents: 2)
        placed.placements = [BinobanBatchPlacement(batch: b1, eventCount: 2)]
        _ = rig.drain(2)
        _ = rig.feed(.written(placed, storedBytes: 20, moreInDrain: false, placedBytes: [20]))
        // The next append goes on filling b1, then fails: the failure says how many it stored, not where.
        _ = rig.drain(4)
        _ = rig.feed(
            .writeFailed(lost: 1, moreInDrain: false, message: "EIO", stored: .init(storedEvents: 3), storedBytes: 30))
        #expect(rig.machine.statistics.queuedEvents == 5)
        #expect(booksClose(rig.machine.statistics))
        _ = rig.feed(.intakeHasWork)
        _ = rig.feed(.drained(PipelineDrain(tickets: [.init(waiterID: 1)])))
        #expect(rig.feed(.listed([b1])) == [.read(b1)])
        _ = rig.readAndSend(b1, events: 5)
        _ = rig.feed(.answered(b1, status: 200, retryAfter: nil, jitter: 0))
        _ = rig.feed(.removed(b1))
        let stats = rig.machine.statistics
        #expect(stats.uploadedEvents == 5)
        #expect(stats.queuedEvents == 0)
        #expect(stats.queuedBytes == 0)
        #expect(rig.machine.oldestQueuedAt == nil)
        #expect(booksClose(stats))
    }

    @Test("A failed append's stored part with placements is queued by batch, and leaves exactly with it")
    func placedStoredPartLeavesByBatch() {
        var rig = MachineRig(flushAt: 100)
        rig.startEmpty()
        var stored = BinobanStorageWriteReport(storedEvents: 3)
        stored.placements = [
            BinobanBatchPlacement(batch: b1, eventCount: 1), BinobanBatchPlacement(batch: b2, eventCount: 2),
        ]
        _ = rig.drain(5)
        _ = rig.feed(
            .writeFailed(
                lost: 2, moreInDrain: false, message: "EIO", stored: stored, storedBytes: 30, placedBytes: [12, 18]))
        #expect(rig.machine.statistics.queuedEvents == 3)
        #expect(rig.machine.statistics.queuedBytes == 30)
        // The next write evicts b1 (not in the upload work): exactly its event leaves, with its bytes.
        _ = rig.drain(1)
        var evicting = BinobanStorageWriteReport(storedEvents: 1, evictedBatches: 1, evictedEvents: 1)
        evicting.evictedBatchEvents = [b1: 1]
        evicting.placements = [BinobanBatchPlacement(batch: b2, eventCount: 1)]
        _ = rig.feed(.written(evicting, storedBytes: 10, moreInDrain: false, placedBytes: [10]))
        let stats = rig.machine.statistics
        #expect(stats.dropped.storageEviction == 1)
        #expect(stats.queuedEvents == 3)
        #expect(stats.queuedBytes == 28)
        #expect(booksClose(stats))
    }

    @Test("At the shutdown deadline, batches read and waiting for the gate are let go, and queued ones too")
    func deadlineForgetsHeldBatches() {
        var rig = MachineRig(flushAt: 2)
        rig.startEmpty()
        _ = rig.write(4)
        #expect(rig.feed(.listed([b1, b2])) == [.read(b1)])
        #expect(rig.readAndSend(b1, events: 2) == [.send(b1)])
        // b1 fails: it waits, read and held by the driver, for the backoff gate; b2 was never read.
        _ = rig.feed(.answered(b1, status: 503, retryAfter: nil, jitter: 0.999))
        #expect(rig.machine.work.map(\.state) == [.ready, .queued])
        rig.stop(deadline: 500)
        let stopped = rig.at(500, .timerFired)
        #expect(stopped.contains(.forget(b1)))
        #expect(stopped.contains(.forget(b2)))
        #expect(stopped.last == .finish)
        #expect(rig.machine.work.isEmpty)
        let stats = rig.machine.statistics
        #expect(stats.queuedEvents == 4)
        #expect(booksClose(stats))
    }

    @Test("A batch evicted while it was sent is counted as evicted when the deadline ends its request")
    func deadlineCountsBatchEvictedInFlight() {
        var rig = MachineRig(flushAt: 2)
        rig.startEmpty()
        rig.machine.namesEvents = true
        var placed = BinobanStorageWriteReport(storedEvents: 2)
        placed.placements = [BinobanBatchPlacement(batch: b1, eventCount: 2)]
        _ = rig.drain(2)
        #expect(
            rig.feed(.written(placed, storedBytes: 20, moreInDrain: false, placedBytes: [20])) == [.list(limit: 20)])
        #expect(rig.feed(.listed([b1])) == [.read(b1)])
        #expect(rig.readAndSend(b1, events: 2) == [.send(b1)])
        // A write evicts b1 while its request is out: counted only if it is not delivered.
        _ = rig.drain(1)
        var evicting = BinobanStorageWriteReport(storedEvents: 1, evictedBatches: 1, evictedEvents: 2)
        evicting.evictedBatchEvents = [b1: 2]
        evicting.placements = [BinobanBatchPlacement(batch: b2, eventCount: 1)]
        _ = rig.feed(.written(evicting, storedBytes: 10, moreInDrain: false, placedBytes: [10]))
        #expect(rig.machine.statistics.dropped.storageEviction == 0)
        rig.stop(deadline: 500)
        let stopped = rig.at(500, .timerFired)
        #expect(stopped.first == .cancelUploads)
        #expect(
            notices(stopped) == [DeliveryNotice(outcome: .dropped(.storageEviction), eventCount: 2, events: .batch(b1))]
        )
        #expect(reportCounts(stopped, .storageEviction) == [2])
        let forget = stopped.firstIndex(of: .forget(b1))
        let notice = stopped.firstIndex { if case .deliver = $0 { true } else { false } }
        #expect(forget != nil && notice != nil && notice! < forget!)
        #expect(stopped.last == .finish)
        let stats = rig.machine.statistics
        #expect(stats.dropped.storageEviction == 2)
        #expect(stats.queuedEvents == 1)
        #expect(booksClose(stats))
    }

    @Test("A batch evicted while it was sent and delivered before the deadline is counted once, as uploaded")
    func evictedInFlightDeliveredIsNotCountedAtTheDeadline() {
        var rig = MachineRig(flushAt: 2)
        rig.startEmpty()
        var placed = BinobanStorageWriteReport(storedEvents: 2)
        placed.placements = [BinobanBatchPlacement(batch: b1, eventCount: 2)]
        _ = rig.drain(2)
        _ = rig.feed(.written(placed, storedBytes: 20, moreInDrain: false, placedBytes: [20]))
        _ = rig.feed(.listed([b1]))
        _ = rig.readAndSend(b1, events: 2)
        var evicting = BinobanStorageWriteReport(evictedBatches: 1, evictedEvents: 2)
        evicting.evictedBatchEvents = [b1: 2]
        _ = rig.drain(1)
        _ = rig.feed(.writeFailed(lost: 1, moreInDrain: false, message: "EIO"))
        _ = rig.feed(.listed([], closed: evicting))
        #expect(rig.feed(.answered(b1, status: 200, retryAfter: nil, jitter: 0)) == [.forget(b1)])
        rig.stop(deadline: 500)
        let stopped = rig.at(500, .timerFired)
        #expect(!stopped.contains(.forget(b1)))
        let stats = rig.machine.statistics
        #expect(stats.uploadedEvents == 2)
        #expect(stats.dropped.storageEviction == 0)
        #expect(stats.dropped.storageFailure == 1)
        #expect(booksClose(stats))
    }
}
