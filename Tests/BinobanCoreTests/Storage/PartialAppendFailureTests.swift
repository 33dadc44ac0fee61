import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// Stores the first half (rounded down) of the first append it is asked for, then fails that append and says
/// how many of its events it stored; later appends go through.
private actor HalfStoringStorage: BinobanEventStorage {
    struct DiskFull: Error {}

    let base: InMemoryEventStorage
    /// The first append's event count and how many of them were stored.
    private(set) var firstAppend: (events: Int, stored: Int)?

    init(_ base: InMemoryEventStorage) {
        self.base = base
    }

    func append(_ events: [Data], whenFull: BinobanStorageFullBehaviour) async throws -> BinobanStorageWriteReport {
        try await base.append(events, whenFull: whenFull)
    }

    func appendReportingProgress(
        _ events: [Data], whenFull: BinobanStorageFullBehaviour
    ) async -> Result<BinobanStorageWriteReport, BinobanStorageAppendFailure> {
        guard firstAppend == nil else {
            do {
                return .success(try await base.append(events, whenFull: whenFull))
            } catch {
                return .failure(BinobanStorageAppendFailure(storedEventsBeforeFailure: 0, error: error))
            }
        }
        let stored = events.count / 2
        firstAppend = (events.count, stored)
        do {
            _ = try await base.append(Array(events.prefix(stored)), whenFull: whenFull)
        } catch {
            return .failure(BinobanStorageAppendFailure(storedEventsBeforeFailure: 0, error: error))
        }
        return .failure(BinobanStorageAppendFailure(storedEventsBeforeFailure: stored, error: DiskFull()))
    }

    func closeOpenBatch() async throws -> BinobanStorageWriteReport { try await base.closeOpenBatch() }
    func finishedBatches(limit: Int) async throws -> [BinobanBatchID] { try await base.finishedBatches(limit: limit) }
    func read(_ batch: BinobanBatchID) async throws -> BinobanStoredBatch? { try await base.read(batch) }
    func remove(_ batch: BinobanBatchID) async throws { try await base.remove(batch) }
}

@Suite("A storage that fails part-way through an append")
struct PartialAppendFailureTests {
    private static func harness(_ storage: HalfStoringStorage) -> PipelineHarness {
        PipelineHarness {
            $0.storage = storage
            $0.trackApplicationLifecycleEvents = false
        }
    }

    @Test("The events it stored before failing are delivered; only the rest are counted as lost")
    func storedPrefixIsNotCountedAsLost() async throws {
        let storage = HalfStoringStorage(InMemoryEventStorage(writeKey: "SOURCE"))
        let harness = Self.harness(storage)
        await harness.settle()
        for index in 0..<20 { harness.binoban.track(name: "e\(index)") }
        harness.binoban.flush()
        _ = try await harness.transport.waitForRequests(count: 1, timeout: .seconds(60))
        // The loop publishes its figures when it parks, and the request can reach the transport before that (under
        // the thread sanitizer the test read them first once): a flush returns only after they are published.
        _ = await harness.binoban.flushAndWait()

        let first = try #require(await storage.firstAppend)
        let statistics = harness.binoban.statistics
        #expect(statistics.dropped.storageFailure == first.events - first.stored)
        // The first append took the oldest events: its stored prefix is delivered, its unstored rest is not.
        let lost = first.stored..<first.events
        let expected = (0..<20).filter { !lost.contains($0) }.map { "e\($0)" }
        #expect(try harness.uploadedEvents().map(\.event) == expected)
        #expect(harness.reports.all.contains { $0.kind == .storage && $0.eventCount == lost.count })
    }

    @Test("The events it stored before failing are queued until they leave, and the books close")
    func storedPrefixIsQueued() async throws {
        let storage = HalfStoringStorage(InMemoryEventStorage(writeKey: "SOURCE"))
        // No transport: what is stored stays queued, so the statistics show the queue the failure left.
        let harness = PipelineHarness {
            $0.storage = storage
            $0.trackApplicationLifecycleEvents = false
            $0.transport = nil
        }
        await harness.settle()
        for index in 0..<20 { harness.binoban.track(name: "e\(index)") }
        _ = await harness.binoban.flushAndWait()
        let first = try #require(await storage.firstAppend)
        let statistics = harness.binoban.statistics
        #expect(statistics.dropped.storageFailure == first.events - first.stored)
        #expect(statistics.queuedEvents == 20 - (first.events - first.stored))
        #expect(statistics.storedEvents == statistics.queuedEvents)
        #expect(
            statistics.acceptedEvents + statistics.recoveredEvents
                == statistics.queuedEvents + statistics.uploadedEvents + statistics.dropped.total)
    }

    @Test("flushAndWait() returns after a failed append")
    func flushAndWaitReturnsAfterAFailedAppend() async throws {
        let harness = Self.harness(HalfStoringStorage(InMemoryEventStorage(writeKey: "SOURCE")))
        await harness.settle()
        for index in 0..<20 { harness.binoban.track(name: "e\(index)") }
        #expect(await harness.binoban.flushAndWait().outcome == .completed)
    }
}
