import BinobanCoreTesting
import Testing

@testable import BinobanCore

@Suite("Flush triggers")
struct FlushTriggerTests {
    @Test("flushAt: the third stored event uploads one batch of three")
    func flushAtTrigger() async throws {
        let harness = PipelineHarness { $0.flushAt = 3 }
        await harness.settle()
        harness.binoban.track(name: "a")
        harness.binoban.track(name: "b")
        try await harness.storage.waitForStoredEvents(count: 2)
        #expect(harness.transport.requests.isEmpty)
        harness.binoban.track(name: "c")
        let requests = try await harness.transport.waitForRequests(count: 1)
        #expect(try UploadedBatch.decode(requests[0].body).batch.map(\.event) == ["a", "b", "c"])
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("flush() in async code is the seed's fire-and-forget call: no await, and the upload follows")
    func fireAndForgetFromAsyncCode() async throws {
        let harness = PipelineHarness { $0.flushAt = 100 }
        await harness.settle()
        harness.binoban.track(name: "a")
        try await harness.storage.waitForStoredEvents(count: 1)
        harness.binoban.flush()  // an async context, and still the non-waiting flush
        let requests = try await harness.transport.waitForRequests(count: 1)
        #expect(try UploadedBatch.decode(requests[0].body).batch.map(\.event) == ["a"])
        #expect(await harness.binoban.flushAndWait().outcome == .completed)
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("A runtime flushAt change takes effect at once")
    func flushAtRuntime() async throws {
        let harness = PipelineHarness { $0.flushAt = 100 }
        await harness.settle()
        harness.binoban.track(name: "a")
        harness.binoban.track(name: "b")
        try await harness.storage.waitForStoredEvents(count: 2)
        harness.binoban.flushAt = 2
        #expect(harness.binoban.flushAt == 2)
        let requests = try await harness.transport.waitForRequests(count: 1)
        #expect(try UploadedBatch.decode(requests[0].body).batch.count == 2)
        harness.binoban.flushAt = 0
        #expect(harness.binoban.flushAt == 2)
        #expect(harness.reports.contains(.configurationAdjusted))
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("flushInterval: the timer uploads what is stored, and re-arms")
    func intervalTrigger() async throws {
        let harness = PipelineHarness { $0.flushInterval = 30 }
        await harness.settle()
        let start = harness.clock.now
        try await harness.clock.waitUntilSleepers { $0 == [start.advanced(by: .seconds(30))] }
        harness.binoban.track(name: "a")
        try await harness.storage.waitForStoredEvents(count: 1)
        harness.clock.advance(by: .seconds(29))
        #expect(harness.transport.requests.isEmpty)
        harness.clock.advance(by: .seconds(1))
        let requests = try await harness.transport.waitForRequests(count: 1)
        #expect(try UploadedBatch.decode(requests[0].body).batch.map(\.event) == ["a"])
        try await harness.clock.waitUntilSleepers { $0 == [start.advanced(by: .seconds(60))] }
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("A runtime flushInterval change reschedules the timer from now")
    func intervalRuntime() async throws {
        let harness = PipelineHarness { $0.flushInterval = 30 }
        await harness.settle()
        let start = harness.clock.now
        try await harness.clock.waitUntilSleepers { $0 == [start.advanced(by: .seconds(30))] }
        harness.clock.advance(by: .seconds(2))
        harness.binoban.flushInterval = 5
        #expect(harness.binoban.flushInterval == 5)
        try await harness.clock.waitUntilSleepers { $0 == [start.advanced(by: .seconds(7))] }
        harness.binoban.track(name: "a")
        try await harness.storage.waitForStoredEvents(count: 1)
        harness.clock.advance(by: .seconds(5))
        let requests = try await harness.transport.waitForRequests(count: 1)
        #expect(try UploadedBatch.decode(requests[0].body).batch.count == 1)
        harness.binoban.flushInterval = -1
        #expect(harness.binoban.flushInterval == 5)
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("enabled = false drops new events, stops the timer and keeps stored batches; resuming uploads them")
    func pauseAndResume() async throws {
        let harness = PipelineHarness { $0.flushInterval = 30 }
        await harness.settle()
        harness.binoban.track(name: "kept")
        try await harness.storage.waitForStoredEvents(count: 1)
        harness.binoban.enabled = false
        try await harness.clock.waitForSleepers(count: 0)
        try await harness.clock.waitUntilSleepers { $0.isEmpty }
        harness.binoban.track(name: "dropped")
        #expect(await harness.binoban.flushAndWait().outcome == .paused)
        harness.clock.advance(by: .seconds(120))
        #expect(harness.transport.requests.isEmpty)
        #expect(await harness.memory.storedEventCount == 1)
        harness.binoban.enabled = true
        let requests = try await harness.transport.waitForRequests(count: 1)
        #expect(try UploadedBatch.decode(requests[0].body).batch.map(\.event) == ["kept"])
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("flush() stores everything accepted before it first, then uploads")
    func explicitFlush() async throws {
        let harness = PipelineHarness { $0.flushAt = 1000 }
        await harness.settle()
        for index in 0..<25 { harness.binoban.track(name: "e\(index)") }
        let result = await harness.binoban.flushAndWait()
        #expect(result == BinobanFlushResult(outcome: .completed, uploadedBatches: 1, uploadedEvents: 25))
        #expect(try harness.uploadedEvents().map(\.event) == (0..<25).map { "e\($0)" })
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("Without a transport batches are kept and one report names the fix")
    func missingTransport() async throws {
        let harness = PipelineHarness { $0.transport = nil }
        await harness.settle()
        harness.binoban.track(name: "a")
        #expect(await harness.binoban.flushAndWait().outcome == .keptForRetry)
        #expect(await harness.binoban.flushAndWait().outcome == .keptForRetry)
        #expect(harness.reports.all.filter { $0.kind == .transportMissing }.count == 1)
        #expect(
            harness.reports.all.first { $0.kind == .transportMissing }?.message.contains(
                MissingEventTransport.fixLine) == true)
        #expect(await harness.memory.storedEventCount == 1)
        #expect(harness.binoban.statistics.queuedEvents == 1)
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }
}
