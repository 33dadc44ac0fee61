import BinobanCore
import BinobanCoreTesting
import BinobanCoreURLSession
import Foundation
import LoopbackHTTP
import TestSupport
import Testing

/// Drops the events named `skip` as "sampled".
private struct SampleOut: BinobanEventStage {
    func process(_ event: inout BinobanEvent) -> BinobanStageDecision {
        event.name == "skip" ? .drop(reason: "sampled") : .keep
    }
}

@Suite("Delivery outcomes against a 127.0.0.1 ingest")
struct DeliveryOutcomeIngestTests {
    @Test("What the ingest received, what the observer was told and what the statistics count agree exactly")
    func outcomesMatchTheIngestAndTheStatistics() async throws {
        // The second request is rejected for good; every other one is accepted.
        let server = LoopbackHTTPServer(responder: .script([.ok, .status(400)], then: .ok))
        let port = try server.start()
        defer { server.stop() }
        let deliveries = DeliveryRecorder()
        let clock = ManualClock()
        var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "outcomes")
        configuration.apiHost = "http://127.0.0.1:\(port)"
        configuration.transport = URLSessionEventTransport()
        // Batches of about ten events, so the rejected request is one batch among several.
        let limits = BinobanStorageLimits(maxEventBytes: 2_000, maxBatchBytes: 4_000, maxFinishedBatches: 100)
        configuration.storageLimits = limits
        configuration.storage = InMemoryEventStorage(limits: limits, writeKey: "outcomes")
        configuration.clock = clock
        configuration.wallClock = clock
        configuration.randomSource = SeededRandomSource(seed: 23)
        configuration.flushAt = 10_000
        configuration.flushInterval = 3600
        configuration.maxConcurrentUploads = 1
        configuration.deliveryObserver = deliveries
        configuration.stages = [SampleOut()]
        let binoban = Binoban.create(configuration: configuration)

        for index in 0..<60 {
            binoban.track(name: index % 4 == 3 ? "skip" : "purchase", properties: ["index": .int(index)])
        }
        binoban.track(name: "huge", properties: ["blob": .string(String(repeating: "x", count: 3_000))])
        let result = await binoban.flushAndWait()
        #expect(result.outcome == .completed)

        let bodies = try server.requests.map { try UploadedBatch.decode($0.body).batch }
        #expect(bodies.count >= 3)
        let acceptedIds = bodies.enumerated().filter { $0.offset != 1 }.flatMap { $0.element.map(\.messageId) }
        let rejectedIds = bodies[1].map(\.messageId)

        let statistics = binoban.statistics
        #expect(statistics.acceptedEvents == 61)
        #expect(statistics.uploadedEvents == acceptedIds.count)
        #expect(statistics.dropped.rejected == rejectedIds.count)
        #expect(statistics.dropped.stageReasons == ["sampled": 15])
        #expect(statistics.dropped.oversize == 1)
        #expect(statistics.dropped.total == rejectedIds.count + 16)
        #expect(statistics.uploadedEvents + statistics.dropped.total == 61)

        #expect(deliveries.messageIds(.uploaded) == acceptedIds)
        #expect(deliveries.eventCount(.uploaded) == statistics.uploadedEvents)
        #expect(deliveries.messageIds(.rejected(status: 400)) == rejectedIds)
        #expect(deliveries.eventCount(.rejected(status: 400)) == statistics.dropped.rejected)
        let sampled = deliveries.messageIds(.dropped(.stage("sampled")))
        #expect(sampled.count == 15)
        #expect(deliveries.messageIds(.dropped(.oversize)).count == 1)
        // Every accepted event is reported exactly once, under one outcome.
        let all = deliveries.deliveries.flatMap(\.messageIds)
        #expect(all.count == 61)
        #expect(Set(all).count == 61)
        #expect(deliveries.deliveries.reduce(0) { $0 + $1.eventCount } == 61)
        _ = await binoban.shutdown(gracePeriod: .seconds(5))
    }
}
