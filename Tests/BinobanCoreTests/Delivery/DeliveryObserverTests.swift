import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

@Suite("Delivery observer")
struct DeliveryObserverTests {
    @Test("Evictions from a full storage are reported with the count the statistics took")
    func evictionsAreReported() async throws {
        let deliveries = DeliveryRecorder()
        let limits = BinobanStorageLimits(maxBatchBytes: 2_000, maxFinishedBatches: 2, maxTotalBytes: 1_000_000)
        let harness = PipelineHarness(limits: limits) { config in
            config.flushAt = 10_000
            config.transport = nil
            config.deliveryObserver = deliveries
        }
        for index in 0..<200 { harness.binoban.track(name: "e", properties: ["i": .int(index)]) }
        await harness.binoban.flushAndWait()
        await harness.binoban.waitUntilQuiet()
        let evicted = harness.binoban.statistics.dropped.storageEviction
        #expect(evicted > 0)
        #expect(deliveries.eventCount(.dropped(.storageEviction)) == evicted)
        #expect(deliveries.deliveries.allSatisfy { $0.outcome == .dropped(.storageEviction) })
    }

    @Test("Events a full storage refuses are reported as storageFull, with their message ids")
    func refusedAreReported() async throws {
        let deliveries = DeliveryRecorder()
        let limits = BinobanStorageLimits(maxBatchBytes: 2_000, maxFinishedBatches: 2, maxTotalBytes: 1_000_000)
        let harness = PipelineHarness(limits: limits) { config in
            config.flushAt = 10_000
            config.backpressure = .dropNewest
            config.deliveryObserver = deliveries
        }
        harness.transport.enqueue([])
        for index in 0..<200 { harness.binoban.track(name: "e", properties: ["i": .int(index)]) }
        await harness.binoban.flushAndWait()
        await harness.binoban.waitUntilQuiet()
        let statistics = harness.binoban.statistics
        #expect(statistics.dropped.storageFull > 0)
        #expect(deliveries.eventCount(.dropped(.storageFull)) == statistics.dropped.storageFull)
        #expect(deliveries.messageIds(.dropped(.storageFull)).count == statistics.dropped.storageFull)
        #expect(deliveries.eventCount(.uploaded) == statistics.uploadedEvents)
        #expect(Set(deliveries.messageIds(.uploaded)) == Set(try harness.uploadedEvents().map(\.messageId)))
        #expect(statistics.uploadedEvents + statistics.queuedEvents + statistics.dropped.total == 200)
    }

    @Test("The machine asks for delivery reports only when they are wanted, before the batch's removal")
    func machineNoticesOnlyWhenWanted() {
        for wanted in [false, true] {
            var machine = deliveryTestMachine(reportsDeliveries: wanted, flushAt: 2)
            let now = ManualClock.Instant(offset: .zero)
            let id = BinobanBatchID(sequence: 1)
            var actions: [PipelineAction] = []
            actions += machine.handle(.intakeHasWork, at: now)
            var drain = PipelineDrain()
            drain.eventCount = 3
            drain.acceptedEvents = 3
            actions += machine.handle(.drained(drain), at: now)
            actions += machine.handle(
                .stageDropped([StageDrop(reason: "consent", count: 1, messageIds: ["m"])]), at: now)
            actions += machine.handle(
                .written(BinobanStorageWriteReport(storedEvents: 2), storedBytes: 20, moreInDrain: false), at: now)
            actions += machine.handle(.listed([id]), at: now)
            actions += machine.handle(.read(id, eventCount: 2, bytes: 20), at: now)
            let answer = machine.handle(.answered(id, status: 200, retryAfter: nil, jitter: 0), at: now)
            let notices = (actions + answer).compactMap { if case .deliver(let notice) = $0 { notice } else { nil } }
            #expect(machine.statistics.dropped.stageReasons == ["consent": 1])
            if wanted {
                #expect(
                    notices == [
                        DeliveryNotice(outcome: .dropped(.stage("consent")), eventCount: 1, events: .named(["m"])),
                        DeliveryNotice(outcome: .uploaded, eventCount: 2, events: .batch(id)),
                    ])
                #expect(answer.firstIndex(of: .deliver(notices[1])) ?? 99 < answer.firstIndex(of: .remove(id)) ?? -1)
            } else {
                #expect(notices.isEmpty)
            }
        }
    }
}
