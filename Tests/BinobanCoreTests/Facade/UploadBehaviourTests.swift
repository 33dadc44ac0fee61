import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

@Suite("Upload behaviour")
struct UploadBehaviourTests {
    @Test("500, 500, 200: retried after full-jitter backoffs on the clock, same body, fresh sentAt")
    func retriesThenSuccess() async throws {
        let harness = PipelineHarness(script: [500, 500, 200], random: FixedRandomSource(unitValues: [0.5]))
        await harness.settle()
        harness.binoban.track(name: "a")
        async let flushed = harness.binoban.flushAndWait()
        let start = harness.clock.now
        try await harness.clock.waitUntilSleepers { $0.contains(start.advanced(by: .milliseconds(500))) }
        harness.clock.advance(by: .milliseconds(500))
        try await harness.clock.waitUntilSleepers { $0.contains(start.advanced(by: .milliseconds(1500))) }
        harness.clock.advance(by: .milliseconds(1000))
        let result = await flushed
        #expect(result.outcome == .completed)
        #expect(result.uploadedEvents == 1)
        let requests = harness.transport.requests
        #expect(requests.count == 3)
        let batches = try requests.map { try UploadedBatch.decode($0.body) }
        #expect(Set(batches.map(\.batch)).count == 1)
        #expect(
            batches.map(\.sentAt) == [
                "2026-08-02T12:00:00.000Z", "2026-08-02T12:00:00.500Z", "2026-08-02T12:00:01.500Z",
            ])
        #expect(await harness.memory.finishedBatchCount == 0)
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("Persistent 500: 1 + uploadMaxRetries attempts, the batch is kept, the flush stops and reports")
    func keepAfterRetries() async throws {
        let harness = PipelineHarness(defaultAnswer: 500, random: FixedRandomSource(unitValues: [0.99])) {
            $0.maxFilesPerFlush = 5
            // One request at a time, as on iOS: the second batch is never tried once the first is kept.
            $0.maxConcurrentUploads = 1
        }
        await harness.settle()
        harness.binoban.track(name: "a")
        try await harness.storage.waitForStoredEvents(count: 1)
        await harness.memory.closeOpenBatchForTest()
        harness.binoban.track(name: "b")
        async let flushed = harness.binoban.flushAndWait()
        var elapsed = Duration.zero
        for ceiling in [1000, 2000, 4000] {
            let delay = Duration.milliseconds(Int(Double(ceiling) * 0.99))
            let due = harness.clock.now.advanced(by: delay)
            try await harness.clock.waitUntilSleepers { $0.contains(due) }
            harness.clock.advance(by: delay)
            elapsed += delay
        }
        let result = await flushed
        #expect(result.outcome == .keptForRetry)
        #expect(result.uploadedBatches == 0)
        #expect(harness.transport.requests.count == 4)
        #expect(await harness.memory.finishedBatchCount == 2)
        #expect(harness.reports.contains(.uploadFailed))
        #expect(elapsed == .milliseconds(990 + 1980 + 3960))
        _ = await harness.binoban.shutdown(gracePeriod: .zero)
    }

    @Test("Retry-After is honoured (max of backoff and Retry-After) and capped at retryAfterLimit")
    func retryAfter() async throws {
        let harness = PipelineHarness(
            script: [.retryAfter(5), .retryAfter(600, status: 503), 200],
            random: FixedRandomSource(unitValues: [0.5])
        ) { $0.retryAfterLimit = .seconds(20) }
        await harness.settle()
        harness.binoban.track(name: "a")
        async let flushed = harness.binoban.flushAndWait()
        let start = harness.clock.now
        try await harness.clock.waitUntilSleepers { $0.contains(start.advanced(by: .seconds(5))) }
        #expect(!harness.clock.sleeperDeadlines.contains(start.advanced(by: .milliseconds(500))))
        harness.clock.advance(by: .seconds(5))
        try await harness.clock.waitUntilSleepers { $0.contains(start.advanced(by: .seconds(25))) }
        harness.clock.advance(by: .seconds(20))
        #expect(await flushed.outcome == .completed)
        #expect(harness.transport.requests.count == 3)
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("400 drops the batch at once and reports; the next batch still goes")
    func dropOn400() async throws {
        let harness = PipelineHarness(script: [400, 200])
        await harness.settle()
        harness.binoban.track(name: "poison")
        try await harness.storage.waitForStoredEvents(count: 1)
        await harness.memory.closeOpenBatchForTest()
        harness.binoban.track(name: "fine")
        let result = await harness.binoban.flushAndWait()
        #expect(
            result
                == BinobanFlushResult(
                    outcome: .completed, uploadedBatches: 1, uploadedEvents: 1, rejectedBatches: 1, rejectedEvents: 1,
                    droppedEvents: 1))
        #expect(harness.transport.requests.count == 2)
        #expect(await harness.memory.finishedBatchCount == 0)
        let report = try #require(harness.reports.all.first { $0.kind == .batchRejected })
        #expect(report.message.contains("400"))
    }

    @Test("Network errors are contained, reported and retried")
    func networkError() async throws {
        let harness = PipelineHarness(script: [.networkError, 200], random: FixedRandomSource(unitValues: [0]))
        await harness.settle()
        harness.binoban.track(name: "a")
        let result = await harness.binoban.flushAndWait()
        #expect(result.outcome == .completed)
        #expect(harness.transport.requests.count == 2)
        #expect(harness.reports.contains(.uploadFailed))
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("Batches left by a previous run go at start, at most maxFilesPerFlush per flush")
    func startupFlushAndMaxFiles() async throws {
        let memory = InMemoryEventStorage(writeKey: "SOURCE")
        for index in 0..<5 {
            _ = try await memory.append([Data(#"{"type":"track","event":"old\#(index)"}"#.utf8)])
            try await memory.closeOpenBatch()
        }
        let harness = PipelineHarness(memory: memory) { $0.maxFilesPerFlush = 2 }
        _ = try await harness.transport.waitForRequests(count: 2)
        harness.binoban.flush()
        _ = try await harness.transport.waitForRequests(count: 4)
        let result = await harness.binoban.flushAndWait()
        #expect(result.outcome == .completed)
        #expect(harness.transport.requests.count == 5)
        #expect(await harness.memory.finishedBatchCount == 0)
        let events = try harness.transport.requests.map {
            try JSONDecoder().decode([String: JSONValue].self, from: $0.body)
        }
        #expect(
            events.compactMap { $0["batch"]?.arrayValue?.first?["event"]?.stringValue } == [
                "old0", "old1", "old2", "old3", "old4",
            ])
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("An awaited flush uploads every batch, beyond maxFilesPerFlush")
    func awaitedFlushIsExhaustive() async throws {
        let limits = BinobanStorageLimits(maxBatchBytes: 2000)
        let harness = PipelineHarness(limits: limits) {
            $0.maxFilesPerFlush = 2
            $0.flushAt = 1000
        }
        await harness.settle()
        for index in 0..<40 { harness.binoban.track(name: "e\(index)") }
        let result = await harness.binoban.flushAndWait()
        #expect(result.outcome == .completed)
        #expect(result.uploadedEvents == 40)
        #expect(result.uploadedBatches > 2)
        #expect(harness.transport.requests.allSatisfy { $0.body.count < 2000 })
        #expect(try harness.uploadedEvents().map(\.event) == (0..<40).map { "e\($0)" })
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("Storage caps hold through a long outage: oldest batches dropped and reported, newest delivered after")
    func outage() async throws {
        let limits = BinobanStorageLimits(maxBatchBytes: 3000, maxFinishedBatches: 3, maxTotalBytes: 12_000)
        let harness = PipelineHarness(defaultAnswer: 503, limits: limits) {
            $0.uploadMaxRetries = 0
            $0.flushAt = 1000
        }
        await harness.settle()
        for round in 0..<10 {
            for index in 0..<10 { harness.binoban.track(name: "e\(round * 10 + index)") }
            #expect(await harness.binoban.flushAndWait().outcome == .keptForRetry)
            #expect(await harness.memory.finishedBatchCount <= 3)
            #expect(await harness.memory.storedBytes <= 12_000)
            // The backoff after consecutive failures grows across flushes: the next flush waits it out.
            harness.clock.advance(by: .seconds(61))
        }
        #expect(harness.reports.contains(.storageEviction))
        harness.transport.enqueue([200, 200, 200])
        let result = await harness.binoban.flushAndWait()
        #expect(result.outcome == .completed)
        // Up to four uploads run at once, so the requests may arrive in any order: each keeps its events in order,
        // and together they hold the newest events without a gap or a repeat.
        let batches = try harness.transport.requests.suffix(3).map {
            try UploadedBatch.decode($0.body).batch.compactMap(\.event).map { Int($0.dropFirst())! }
        }
        for batch in batches { #expect(batch == batch.sorted()) }
        let delivered = batches.flatMap { $0 }.sorted()
        #expect(delivered.last == 99)
        #expect(!delivered.contains(0))
        #expect(delivered == Array((delivered.first ?? 0)...99))
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("An event of 32 000 bytes or more is dropped and reported; the others are delivered")
    func oversize() async throws {
        let harness = PipelineHarness()
        await harness.settle()
        harness.binoban.track(name: "small")
        harness.binoban.track(name: "huge", properties: ["blob": .string(String(repeating: "x", count: 32_000))])
        harness.binoban.track(name: "small2")
        await harness.binoban.flushAndWait()
        #expect(try harness.uploadedEvents().map(\.event) == ["small", "small2"])
        #expect(harness.reports.contains(.oversizeEvent))
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("queuedBytes counts the bytes stored, not those of an oversize event the storage refused")
    func queuedBytesLeaveOutOversize() async throws {
        // The same two small events, with and without an oversize one between them: the queue is the same.
        var queued: [Int] = []
        for withHuge in [false, true] {
            let harness = PipelineHarness { $0.flushAt = 1000 }
            await harness.settle()
            harness.binoban.track(name: "small")
            let blob = JSONValue.string(String(repeating: "x", count: 32_000))
            if withHuge { harness.binoban.track(name: "huge", properties: ["blob": blob]) }
            harness.binoban.track(name: "small2")
            try await harness.storage.waitForStoredEvents(count: 2)
            await harness.binoban.waitUntilQuiet()
            let statistics = harness.binoban.statistics
            #expect(statistics.queuedEvents == 2)
            #expect(statistics.dropped.oversize == (withHuge ? 1 : 0))
            queued.append(statistics.queuedBytes)
            _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
        }
        #expect(queued[0] > 0 && queued[0] < 2_000)
        #expect(queued[1] == queued[0])
    }

    @Test("The write stage is bounded: the oldest events are dropped, counted and reported")
    func writeStageOverflow() async throws {
        let harness = PipelineHarness {
            $0.writeStageCapacity = 5
            $0.startsAutomatically = false
        }
        for index in 0..<12 { harness.binoban.track(name: "e\(index)") }
        await withTaskGroup(of: Void.self) { group in
            group.addTask { try? await harness.binoban.run() }
            #expect(await harness.binoban.flushAndWait().outcome == .completed)
            group.cancelAll()
        }
        #expect(try harness.uploadedEvents().map(\.event) == (7..<12).map { "e\($0)" })
        let report = try #require(harness.reports.all.first { $0.kind == .writeStageOverflow })
        #expect(report.message.hasPrefix("7 events"))
    }
}

extension InMemoryEventStorage {
    /// Closes the open batch so that the next event starts a new one.
    func closeOpenBatchForTest() async {
        _ = try? await closeOpenBatch()
    }
}
