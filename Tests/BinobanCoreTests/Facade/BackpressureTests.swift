import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// Forwards to an in-memory storage and totals what its writes evicted, so a test can account for every event.
private actor EvictionCountingStorage: BinobanEventStorage {
    let base: InMemoryEventStorage
    private(set) var evictedEvents = 0
    private(set) var evictedBatches = 0
    /// The most bytes and finished batches the storage held after any write.
    private(set) var peakBytes = 0
    private(set) var peakFinishedBatches = 0

    init(_ base: InMemoryEventStorage) {
        self.base = base
    }

    func append(_ events: [Data], whenFull: BinobanStorageFullBehaviour) async throws -> BinobanStorageWriteReport {
        let report = try await base.append(events, whenFull: whenFull)
        evictedEvents += report.evictedEvents
        evictedBatches += report.evictedBatches
        peakBytes = max(peakBytes, await base.storedBytes)
        peakFinishedBatches = max(peakFinishedBatches, await base.finishedBatchCount)
        return report
    }

    func closeOpenBatch() async throws -> BinobanStorageWriteReport {
        let report = try await base.closeOpenBatch()
        evictedEvents += report.evictedEvents
        evictedBatches += report.evictedBatches
        return report
    }

    func finishedBatches(limit: Int) async throws -> [BinobanBatchID] { try await base.finishedBatches(limit: limit) }
    func read(_ batch: BinobanBatchID) async throws -> BinobanStoredBatch? { try await base.read(batch) }
    func remove(_ batch: BinobanBatchID) async throws { try await base.remove(batch) }
}

@Suite("Backpressure: the storage caps bound an outage, not a burst")
struct BackpressureTests {
    /// About 20 harness events: far below a 300-event burst.
    private static let limits = BinobanStorageLimits(maxBatchBytes: 3000, maxFinishedBatches: 3, maxTotalBytes: 8000)

    /// The events' indices in the order of their names: concurrent uploads reach the ingest in any order, so
    /// the tests compare what arrived, not when.
    private static func sortedIndices(_ events: [String?]) -> [Int] {
        events.compactMap { $0.flatMap { Int($0.dropFirst()) } }.sorted()
    }

    @Test("A burst 10× the storage caps with a healthy transport: every event delivered once, none evicted")
    func healthyBurst() async throws {
        let counting = EvictionCountingStorage(InMemoryEventStorage(limits: Self.limits, writeKey: "SOURCE"))
        let harness = PipelineHarness(limits: Self.limits) {
            $0.storage = counting
            $0.flushAt = 1000
        }
        await harness.settle()
        for index in 0..<300 { harness.binoban.track(name: "e\(index)") }
        let result = await harness.binoban.flushAndWait()

        #expect(result.outcome == .completed)
        #expect(try Self.sortedIndices(harness.uploadedEvents().map(\.event)) == Array(0..<300))
        #expect(await counting.evictedEvents == 0)
        #expect(await counting.peakBytes <= 8000)
        #expect(await counting.peakFinishedBatches <= 3)
        #expect(!harness.reports.contains(.storageEviction))
        #expect(!harness.reports.contains(.writeStageOverflow))
        // The burst really exceeded the caps: it needed many more bytes than the storage may hold.
        #expect(harness.transport.requests.reduce(0) { $0 + $1.body.count } > 8000 * 10)
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("The same burst while uploads fail: oldest evicted and reported; every event delivered or counted")
    func failingBurst() async throws {
        let counting = EvictionCountingStorage(InMemoryEventStorage(limits: Self.limits, writeKey: "SOURCE"))
        let harness = PipelineHarness(defaultAnswer: 503, limits: Self.limits) {
            $0.storage = counting
            $0.flushAt = 1000
            $0.uploadMaxRetries = 0
        }
        await harness.settle()
        for index in 0..<300 { harness.binoban.track(name: "e\(index)") }
        async let kept = harness.binoban.flushAndWait()
        // The first upload failed while the burst was written; the awaited flush waits out the backoff it set
        // (the only timer due before the interval), then fails too and keeps its batch.
        let clock = harness.clock
        let soon = clock.now.advanced(by: .seconds(61))
        try await clock.waitUntilSleepers { $0.contains { $0 <= soon } }
        clock.advance(by: .seconds(61))
        #expect(await kept.outcome == .keptForRetry)
        #expect(await counting.peakBytes <= 8000)
        #expect(await counting.peakFinishedBatches <= 3)
        let report = try #require(harness.reports.all.first { $0.kind == .storageEviction })
        #expect(report.message.contains("events) were dropped"))

        let refused = harness.transport.requests.count
        harness.transport.enqueue(Array(repeating: 200, count: 10))
        // The next flush waits out the backoff the failures set.
        harness.clock.advance(by: .seconds(61))
        #expect(await harness.binoban.flushAndWait().outcome == .completed)
        let delivered = try harness.transport.requests.dropFirst(refused)
            .flatMap { try UploadedBatch.decode($0.body).batch }.compactMap(\.event)
        let evicted = await counting.evictedEvents
        #expect(evicted > 200)
        #expect(Self.sortedIndices(delivered) == Array((300 - delivered.count)..<300))
        #expect(delivered.count + evicted == 300)
        #expect(!harness.reports.contains(.writeStageOverflow))
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("A slow healthy ingest: the writer waits, the bounded intake drops its oldest, storage evicts nothing")
    func intakeBoundsMemory() async throws {
        let counting = EvictionCountingStorage(InMemoryEventStorage(limits: Self.limits, writeKey: "SOURCE"))
        let ingest = HeldTransport()
        let harness = PipelineHarness(limits: Self.limits) {
            $0.storage = counting
            $0.transport = ingest
            $0.flushAt = 1000
            $0.writeStageCapacity = 100
        }
        await harness.settle()
        for index in 0..<5000 { harness.binoban.track(name: "e\(index)") }
        // Whatever the interleaving, a 100-event drain is larger than the storage caps: the writer must ask for
        // an upload, which the ingest holds.
        await ingest.waitUntilHolding()
        #expect(await counting.evictedEvents == 0)
        #expect(await counting.peakBytes <= 8000)
        ingest.open()
        #expect(await harness.binoban.flushAndWait().outcome == .completed)

        let delivered = try ingest.bodies.flatMap { try UploadedBatch.decode($0).batch }.compactMap(\.event)
        let indices = Self.sortedIndices(delivered)
        #expect(Set(indices).count == indices.count)
        // The newest events (one intake's worth) all arrive; the rest is bounded by the storage caps plus the
        // intake and the one drain the writer holds.
        #expect(Array(indices.suffix(100)) == Array(4900..<5000))
        #expect(indices.count < 300)
        #expect(await counting.evictedEvents == 0)
        #expect(harness.reports.contains(.writeStageOverflow))
        #expect(!harness.reports.contains(.storageEviction))
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }
}
