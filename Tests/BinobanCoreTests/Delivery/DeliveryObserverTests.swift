import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// Forwards to an in-memory storage, but reads every batch back with each `messageId` member rewritten: what a
/// pipeline that parses stored bodies for ids would report instead of the events' own ids.
private actor RewritingStorage: BinobanEventStorage {
    let base: InMemoryEventStorage

    init(_ base: InMemoryEventStorage) { self.base = base }

    func append(_ events: [Data], whenFull: BinobanStorageFullBehaviour) async throws -> BinobanStorageWriteReport {
        try await base.append(events, whenFull: whenFull)
    }
    func closeOpenBatch() async throws -> BinobanStorageWriteReport { try await base.closeOpenBatch() }
    func finishedBatches(limit: Int) async throws -> [BinobanBatchID] { try await base.finishedBatches(limit: limit) }
    func read(_ batch: BinobanBatchID) async throws -> BinobanStoredBatch? {
        guard var stored = try await base.read(batch) else { return nil }
        let body = String(decoding: stored.events, as: UTF8.self)
        stored.events = Data(body.replacingOccurrences(of: #""messageId":""#, with: #""messageId":"read-back-"#).utf8)
        return stored
    }
    func remove(_ batch: BinobanBatchID) async throws { try await base.remove(batch) }
}

@Suite("Delivery observer")
struct DeliveryObserverTests {
    @Test("Message ids come with the events from the write stage, not read back from the stored batch")
    func idsTravelWithTheEvents() async throws {
        let deliveries = DeliveryRecorder()
        let storage = RewritingStorage(InMemoryEventStorage(writeKey: "SOURCE"))
        let harness = PipelineHarness { config in
            config.flushAt = 10_000
            config.storage = storage
            config.deliveryObserver = deliveries
        }
        await harness.settle()
        let user = BinobanEventIdentity(userId: "user-1")
        for index in 0..<5 {
            harness.binoban.server.track(
                name: "e", as: user, fields: BinobanMessageFields(messageId: "order-\(index)"))
        }
        await harness.binoban.flushAndWait()
        await harness.binoban.waitUntilQuiet()
        // The ingest got the bodies as the storage read them back; the observer names the events as tracked.
        #expect(try harness.uploadedEvents().map(\.messageId).allSatisfy { $0.hasPrefix("read-back-") })
        #expect(deliveries.messageIds(.uploaded) == (0..<5).map { "order-\($0)" })
    }

    @Test("A previous run's batches, uploaded or purged, are named by the ids read back from them")
    func previousRunBatchesAreReadBack() async throws {
        for purges in [false, true] {
            let memory = InMemoryEventStorage(writeKey: "SOURCE")
            for index in 0..<2 {
                _ = try await memory.append([Data(#"{"type":"track","event":"old","messageId":"old-\#(index)"}"#.utf8)])
                try await memory.closeOpenBatch()
            }
            let deliveries = DeliveryRecorder()
            let harness = PipelineHarness(memory: memory) { config in
                config.deliveryObserver = deliveries
                if purges { config.transport = nil }
            }
            if purges {
                #expect(await harness.binoban.purgeBacklog().purgedEvents == 2)
                #expect(deliveries.messageIds(.dropped(.purged)) == ["old-0", "old-1"])
            } else {
                await harness.settle()
                #expect(deliveries.messageIds(.uploaded) == ["old-0", "old-1"])
            }
            _ = await harness.binoban.shutdown(gracePeriod: .zero)
        }
    }

    @Test("Evictions from a full storage are reported with the count the statistics took, and this run's event ids")
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
        // This run's events: each is named, with the id it was tracked with.
        #expect(deliveries.messageIds(.dropped(.storageEviction)).count == evicted)
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
