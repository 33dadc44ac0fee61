import Foundation
import Testing

@testable import BinobanCore

/// `eventsFittingWithoutEviction` must agree exactly with what the storage then does: the reported prefix (and a
/// close) evicts nothing, one event more evicts a batch.
@Suite("Storage room forecast")
struct StorageRoomForecastTests {
    private static let limits = BinobanStorageLimits(
        maxEventBytes: 500, maxBatchBytes: 1000, envelopeOverheadBytes: 100, maxFinishedBatches: 4,
        maxTotalBytes: 3000)

    /// A reproducible scenario: events stored first (with some batches closed), then a chunk to forecast.
    private struct Scenario {
        var prefill: [[Data]] = []
        var chunk: [Data] = []

        init(seed: UInt64) {
            var state = seed &* 0x9E37_79B9_7F4A_7C15 | 1
            func next(_ bound: Int) -> Int {
                state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
                return Int((state >> 33) % UInt64(bound))
            }
            var index = 0
            for _ in 0..<next(6) {
                prefill.append(
                    (0..<(1 + next(8))).map { _ in
                        index += 1
                        return TestEvents.event(index, bytes: 20 + next(380))
                    })
            }
            // An occasional oversize event: refused by the storage, so it always "fits".
            chunk = (0..<30).map { _ in
                index += 1
                return TestEvents.event(index, bytes: next(15) == 0 ? 600 : 20 + next(380))
            }
        }
    }

    /// Appends `events` and closes the open batch; returns the batches evicted by both.
    private static func evictions(appending events: [Data], to storage: some BinobanEventStorage) async throws -> Int {
        var evicted = try await storage.append(events).evictedBatches
        try await storage.closeOpenBatch()
        evicted += try await storage.append([]).evictedBatches
        return evicted
    }

    private static func prefill(_ storage: some BinobanEventStorage, with scenario: Scenario) async throws {
        for (round, events) in scenario.prefill.enumerated() {
            _ = try await storage.append(events)
            if round % 2 == 1 { try await storage.closeOpenBatch() }
        }
        _ = try await storage.append([])
    }

    @Test("In memory: the forecast prefix never evicts, one event more always does", arguments: 0..<40)
    func inMemory(seed: Int) async throws {
        let scenario = Scenario(seed: UInt64(seed))
        let probe = InMemoryEventStorage(limits: Self.limits)
        try await Self.prefill(probe, with: scenario)
        let holdsEvents = await probe.storedEventCount > 0
        let fitting = await probe.eventsFittingWithoutEviction(scenario.chunk)
        #expect(fitting >= (holdsEvents ? 0 : 1))

        // Zero fitting includes a storage whose open batch would already evict when closed: nothing to check.
        if fitting > 0 {
            let exact = InMemoryEventStorage(limits: Self.limits)
            try await Self.prefill(exact, with: scenario)
            #expect(try await Self.evictions(appending: Array(scenario.chunk.prefix(fitting)), to: exact) == 0)
        }

        guard fitting < scenario.chunk.count else { return }
        let beyond = InMemoryEventStorage(limits: Self.limits)
        try await Self.prefill(beyond, with: scenario)
        #expect(try await Self.evictions(appending: Array(scenario.chunk.prefix(fitting + 1)), to: beyond) > 0)
    }

    @Test("Batch files: the forecast prefix never evicts, one event more always does", arguments: 0..<12)
    func files(seed: Int) async throws {
        let scenario = Scenario(seed: UInt64(seed) &+ 1000)
        try await withTemporaryDirectory { directory in
            func open(_ name: String) throws -> BinobanFileEventStorage {
                try BinobanFileEventStorage(
                    directory: directory.appendingPathComponent(name), limits: Self.limits, namespace: "src")
            }
            let probe = try open("probe")
            try await Self.prefill(probe, with: scenario)
            let fitting = await probe.eventsFittingWithoutEviction(scenario.chunk)

            if fitting > 0 {
                let exact = try open("exact")
                try await Self.prefill(exact, with: scenario)
                #expect(try await Self.evictions(appending: Array(scenario.chunk.prefix(fitting)), to: exact) == 0)
            }

            guard fitting < scenario.chunk.count else { return }
            let beyond = try open("beyond")
            try await Self.prefill(beyond, with: scenario)
            #expect(try await Self.evictions(appending: Array(scenario.chunk.prefix(fitting + 1)), to: beyond) > 0)
        }
    }

    @Test("Fitting counts agree with the caps: a chunk that fits entirely, and none when the caps are reached")
    func plainCounts() async throws {
        // 99-byte events: 9 to a batch (body 899 + 100 envelope < 1000); 3000 bytes hold 30 events.
        let limits = BinobanStorageLimits(
            maxEventBytes: 500, maxBatchBytes: 1000, envelopeOverheadBytes: 100, maxFinishedBatches: 20,
            maxTotalBytes: 3000)
        let storage = InMemoryEventStorage(limits: limits)
        _ = try await storage.append(TestEvents.events(0..<10, bytes: 99))
        #expect(await storage.eventsFittingWithoutEviction(TestEvents.events(10..<15, bytes: 99)) == 5)
        // 10 × 99 + 9 commas = 999 bytes now; each further event adds 100 (99 + a comma) within a batch, 99
        // when it starts one: 20 more events bring the total to 2999 bytes (the 11th..30th event).
        #expect(await storage.eventsFittingWithoutEviction(TestEvents.events(10..<60, bytes: 99)) == 20)
        _ = try await storage.append(TestEvents.events(10..<30, bytes: 99))
        #expect(await storage.eventsFittingWithoutEviction(TestEvents.events(30..<31, bytes: 99)) == 0)
    }

    @Test("An empty storage takes at least one event, even one larger than its caps")
    func emptyTakesOne() async {
        let tiny = BinobanStorageLimits(maxEventBytes: 500, maxBatchBytes: 1000, maxTotalBytes: 50)
        let storage = InMemoryEventStorage(limits: tiny)
        #expect(await storage.eventsFittingWithoutEviction(TestEvents.events(0..<3, bytes: 100)) == 1)
        #expect(await storage.eventsFittingWithoutEviction([]) == 0)
    }
}
