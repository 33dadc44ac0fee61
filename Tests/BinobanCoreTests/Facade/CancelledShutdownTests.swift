import BinobanCoreTesting
import Testing

@testable import BinobanCore

/// Runs `body` in a task that is already cancelled when `body` starts.
private func inCancelledTask<T: Sendable>(_ body: @escaping @Sendable () async -> T) async -> T {
    await Task {
        withUnsafeCurrentTask { $0?.cancel() }
        return await body()
    }.value
}

/// An instance on the real clocks (`ContinuousClock`, the system wall clock), in-memory storage, a scripted
/// transport.
private func realClockInstance(transport: ScriptedTransport) -> Binoban {
    var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "SOURCE")
    configuration.apiHost = "api.binoban.io"
    configuration.storage = InMemoryEventStorage(writeKey: "SOURCE")
    configuration.keyValueStore = InMemoryKeyValueStore()
    configuration.transport = transport
    configuration.contextProvider = FixedContextProvider()
    configuration.flushInterval = 3600
    return Binoban.create(configuration: configuration)
}

/// The real-clock tests give a grace period far longer than their bound: a shutdown that waited for its deadline
/// (the defect they pin never returned at all) fails the bound, and a test task starved of threads for a minute (the
/// whole suite under the thread sanitizer on 2 cores took 37-43 s for a shutdown with a 30 s grace period) does not.
@Suite("Shutdown from a cancelled task", .timeLimit(.minutes(10)))
struct CancelledShutdownTests {
    @Test("An idle instance shut down from a cancelled task returns, on the manual clock, and then stays stopped")
    func idleManualClock() async throws {
        let harness = PipelineHarness()
        let result = await inCancelledTask {
            #expect(Task.isCancelled)
            return await harness.binoban.shutdown(gracePeriod: .seconds(5))
        }
        #expect(result.outcome == .completed)
        harness.binoban.track(name: "after-shutdown")
        #expect(await harness.binoban.flushAndWait().outcome == .interrupted)
        #expect(harness.transport.requests.isEmpty)
        #expect(harness.binoban.statistics.acceptedEvents == 0)
    }

    @Test("An idle instance shut down from a cancelled task returns within its grace period on the real clock")
    func idleRealClock() async throws {
        let binoban = realClockInstance(transport: ScriptedTransport())
        let clock = ContinuousClock()
        let started = clock.now
        let result = await inCancelledTask { await binoban.shutdown(gracePeriod: .seconds(600)) }
        #expect(started.duration(to: clock.now) < .seconds(120))
        #expect(result.outcome == .completed)
    }

    @Test("Queued events are uploaded by the final flush although the shutting-down task is cancelled")
    func queuedEventsUploaded() async throws {
        let harness = PipelineHarness()
        await harness.settle()
        for index in 0..<3 { harness.binoban.track(name: "e\(index)") }
        let result = await inCancelledTask { await harness.binoban.shutdown(gracePeriod: .seconds(5)) }
        #expect(result.outcome == .completed)
        #expect(result.uploadedEvents == 3)
        #expect(try harness.uploadedEvents().map(\.event) == ["e0", "e1", "e2"])
        #expect(harness.binoban.statistics.queuedEvents == 0)
    }

    @Test("On the real clock, queued events are uploaded by a cancelled task's shutdown within the grace period")
    func queuedEventsUploadedRealClock() async throws {
        let transport = ScriptedTransport()
        let binoban = realClockInstance(transport: transport)
        for index in 0..<3 { binoban.track(name: "e\(index)") }
        let clock = ContinuousClock()
        let started = clock.now
        let result = await inCancelledTask { await binoban.shutdown(gracePeriod: .seconds(600)) }
        #expect(started.duration(to: clock.now) < .seconds(120))
        #expect(result.outcome == .completed)
        #expect(try transport.uploadedEvents().map(\.event) == ["e0", "e1", "e2"])
    }

    @Test("A cancelled task's shutdown against a failing ingest returns at the deadline, the batch kept and counted")
    func failingIngestReturnsAtDeadline() async throws {
        let harness = PipelineHarness(defaultAnswer: 503, random: FixedRandomSource(unitValues: [0.5]))
        await harness.settle()
        harness.binoban.track(name: "a")
        try await harness.storage.waitForStoredEvents(count: 1)
        let start = harness.clock.now
        let shutdown = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return await harness.binoban.shutdown(gracePeriod: .seconds(2))
        }
        // The first request failed; the pipeline sleeps until the backoff (500 ms) ends, before the deadline.
        _ = try await harness.transport.waitForRequests(count: 1)
        try await harness.clock.waitUntilSleepers { $0.contains(start.advanced(by: .milliseconds(500))) }
        harness.clock.advance(by: .seconds(2))
        #expect(await shutdown.value.outcome == .interrupted)
        #expect(await harness.memory.finishedBatchCount == 1)
        let statistics = harness.binoban.statistics
        #expect(statistics.queuedEvents == 1)
        #expect(
            statistics.acceptedEvents == statistics.queuedEvents + statistics.uploadedEvents + statistics.dropped.total)
    }
}
