import Foundation
import Testing

@testable import BinobanCore

@Suite("In-memory event storage")
struct InMemoryEventStorageTests {
    func event(_ size: Int) -> Data {
        Data(("{\"x\":\"" + String(repeating: "a", count: max(0, size - 8)) + "\"}").utf8)
    }

    @Test("Events of maxEventBytes or more are refused and counted")
    func oversize() async throws {
        let storage = InMemoryEventStorage()
        let report = try await storage.append([event(100), event(32_000), event(31_999)])
        #expect(report.storedEvents == 2)
        #expect(report.rejectedOversizeEvents == 1)
    }

    @Test("A batch closes before events + envelope reach maxBatchBytes; batches are comma-joined JSON")
    func rollover() async throws {
        let storage = InMemoryEventStorage(writeKey: "SOURCE")
        for _ in 0..<40 { _ = try await storage.append([event(30_000)]) }
        try await storage.closeOpenBatch()
        let ids = try await storage.finishedBatches(limit: 100)
        #expect(ids.count == 3)
        let overhead = BinobanStorageLimits.envelopeOverhead(forWriteKey: "SOURCE")
        for id in ids {
            let batch = try #require(try await storage.read(id))
            #expect(batch.events.count + overhead < 500_000)
            let decoded = try JSONDecoder().decode(
                [JSONValue].self, from: Data("[".utf8) + batch.events + Data("]".utf8))
            #expect(decoded.count == batch.eventCount)
        }
        #expect(try await storage.read(ids[0])?.eventCount == 16)
    }

    @Test("At most maxFinishedBatches and maxTotalBytes are kept, oldest dropped first and counted")
    func caps() async throws {
        let storage = InMemoryEventStorage(
            limits: BinobanStorageLimits(maxBatchBytes: 1000, maxFinishedBatches: 2, maxTotalBytes: 1_000_000))
        var evicted = 0
        for _ in 0..<6 { evicted += try await storage.append([event(400)]).evictedBatches }
        #expect(evicted == 3)
        #expect(
            try await storage.finishedBatches(limit: 10) == [BinobanBatchID(sequence: 4), BinobanBatchID(sequence: 5)])
        // Closing finishes a third batch: the close itself reports the eviction it made.
        #expect(try await storage.closeOpenBatch().evictedBatches == 1)
        #expect(try await storage.append([]).evictedBatches == 0)
        let byBytes = InMemoryEventStorage(
            limits: BinobanStorageLimits(maxBatchBytes: 1000, maxFinishedBatches: 20, maxTotalBytes: 900))
        for _ in 0..<3 {
            _ = try await byBytes.append([event(400)])
            try await byBytes.closeOpenBatch()
        }
        #expect(await byBytes.storedBytes <= 900)
        #expect(
            try await byBytes.finishedBatches(limit: 10) == [BinobanBatchID(sequence: 2), BinobanBatchID(sequence: 3)])
    }

    @Test("With maxTotalBytes below maxBatchBytes a batch closes before it would be over maxTotalBytes")
    func totalBelowBatchSize() async throws {
        // The default 500 000-byte batches with a 1 000-byte cap: a batch filled to 3 000 bytes would be
        // evicted, all of it, the moment it was finished.
        let storage = InMemoryEventStorage(limits: BinobanStorageLimits(maxTotalBytes: 1_000))
        var report = BinobanStorageWriteReport()
        for _ in 0..<30 {
            let step = try await storage.append([event(100)])
            report.storedEvents += step.storedEvents
            report.evictedEvents += step.evictedEvents
        }
        report.evictedEvents += try await storage.closeOpenBatch().evictedEvents
        #expect(report.storedEvents == 30)
        let ids = try await storage.finishedBatches(limit: 100)
        var kept = 0
        for id in ids {
            let batch = try #require(try await storage.read(id))
            #expect(batch.events.count <= 1_000)
            kept += batch.eventCount
        }
        // The newest events stay (at most nine 100-byte events and their commas fit in 1 000 bytes); the rest
        // are evicted and counted.
        #expect(kept > 0)
        #expect(kept + report.evictedEvents == 30)
        #expect(await storage.storedBytes <= 1_000)
    }

    @Test("Reading a removed batch gives nil; removing twice is harmless; limit is honoured")
    func removeAndRead() async throws {
        let storage = InMemoryEventStorage()
        for _ in 0..<3 {
            _ = try await storage.append([event(10)])
            try await storage.closeOpenBatch()
        }
        try await storage.closeOpenBatch()
        #expect(try await storage.finishedBatches(limit: 2).count == 2)
        let first = BinobanBatchID(sequence: 1)
        try await storage.remove(first)
        try await storage.remove(first)
        #expect(try await storage.read(first) == nil)
        #expect(await storage.finishedBatchCount == 2)
    }
}
