import BinobanCoreTesting
import Foundation
import Testing

@Suite("The backlog: its age and its purge")
struct BacklogTests {
    @Test("The oldest queued event's age runs on the configured clock from when it was stored")
    func oldestAge() async throws {
        let harness = PipelineHarness { config in
            config.flushAt = 10_000
            config.transport = nil
        }
        #expect(harness.binoban.statistics.oldestQueuedEventAge == nil)
        for _ in 0..<10 { harness.binoban.track(name: "first") }
        await harness.binoban.flushAndWait()
        await harness.binoban.waitUntilQuiet()
        #expect(harness.binoban.statistics.queuedEvents == 10)
        #expect(harness.binoban.statistics.oldestQueuedEventAge == .zero)
        harness.clock.advance(by: .seconds(30))
        for _ in 0..<5 { harness.binoban.track(name: "later") }
        await harness.binoban.flushAndWait()
        await harness.binoban.waitUntilQuiet()
        harness.clock.advance(by: .seconds(12))
        let statistics = harness.binoban.statistics
        #expect(statistics.queuedEvents == 15)
        #expect(statistics.oldestQueuedEventAge == .seconds(42))
    }

    @Test("A purge deletes the stored backlog, counts it, reports it with its ids and returns it")
    func purge() async throws {
        let deliveries = DeliveryRecorder()
        let metrics = InMemoryMetricsObserver()
        let harness = PipelineHarness(limits: BinobanStorageLimits(maxBatchBytes: 2_000, maxFinishedBatches: 100)) {
            config in
            config.flushAt = 10_000
            config.transport = nil
            config.deliveryObserver = deliveries
            config.metricsObserver = metrics
        }
        for index in 0..<50 { harness.binoban.track(name: "e", properties: ["i": .int(index)]) }
        await harness.binoban.flushAndWait()
        await harness.binoban.waitUntilQuiet()
        let stored = await harness.memory.storedEventCount
        #expect(stored == 50)
        let result = await harness.binoban.purgeBacklog()
        #expect(result.purgedEvents == 50)
        #expect(result.purgedBatches > 1)
        #expect(await harness.memory.storedEventCount == 0)
        let statistics = harness.binoban.statistics
        #expect(statistics.dropped.purged == 50)
        #expect(statistics.dropped.total == 50)
        #expect(statistics.queuedEvents == 0)
        #expect(statistics.queuedBytes == 0)
        #expect(statistics.oldestQueuedEventAge == nil)
        #expect(deliveries.eventCount(.dropped(.purged)) == 50)
        #expect(Set(deliveries.messageIds(.dropped(.purged))).count == 50)
        #expect(metrics.counterTotal("binoban_events_dropped_total") == 50)
        // Nothing left: a second purge deletes nothing; after the shutdown a purge returns at once.
        #expect(await harness.binoban.purgeBacklog() == BinobanPurgeResult())
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
        #expect(await harness.binoban.purgeBacklog() == BinobanPurgeResult())
    }
}
