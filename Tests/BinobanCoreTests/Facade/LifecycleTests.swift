import BinobanCoreTesting
import Testing

@testable import BinobanCore

@Suite("Lifecycle: run, shutdown, coalescing")
struct LifecycleTests {
    @Test("run() starts a manual-start instance, runs until cancelled, then drains what was tracked")
    func runDrainsOnCancel() async throws {
        let harness = PipelineHarness { $0.startsAutomatically = false }
        harness.binoban.track(name: "before-run")
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try? await harness.binoban.run() }
            try await harness.clock.waitForSleepers(count: 1)
            harness.binoban.track(name: "during-run")
            try await harness.storage.waitForStoredEvents(count: 2)
            group.cancelAll()
        }
        #expect(try harness.uploadedEvents().map(\.event) == ["before-run", "during-run"])
        let requestsAtShutdown = harness.transport.requests.count
        harness.binoban.track(name: "after-shutdown")
        #expect(await harness.binoban.flushAndWait().outcome == .interrupted)
        #expect(harness.transport.requests.count == requestsAtShutdown)
    }

    @Test("An instance released without shutdown still writes what it queued, and stops its timer")
    func releasedInstance() async throws {
        let clock = ManualClock()
        let storage = ObservableEventStorage(InMemoryEventStorage())
        do {
            var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "SOURCE")
            configuration.apiHost = "api.binoban.io"
            configuration.storage = storage
            configuration.keyValueStore = InMemoryKeyValueStore()
            configuration.clock = clock
            configuration.wallClock = clock
            configuration.startsAutomatically = false
            configuration.transport = nil  // nothing leaves the test process
            let binoban = Binoban.create(configuration: configuration)
            for index in 0..<3 { binoban.track(name: "e\(index)") }
        }
        try await storage.waitForStoredEvents(count: 3)
        try await clock.waitUntilSleepers { $0.isEmpty }
    }

    @Test(
        "run() cancelled while the automatic start is still opening the storage drains and returns",
        .timeLimit(.minutes(10)))
    func runDuringAutomaticStart() async throws {
        // Ten rounds, each racing the automatic start against run(). The limit is generous: under the thread
        // sanitizer the suite's other tests hold the two cores' task pool, and this test finished 92 s after it
        // began (it ends when they do), which a one-minute limit reported as exceeded.
        for _ in 0..<10 {
            let harness = PipelineHarness()
            harness.binoban.track(name: "early")
            let running = Task { try await harness.binoban.run() }
            running.cancel()
            try await running.value
            #expect(try harness.uploadedEvents().map(\.event) == ["early"])
        }
    }

    @Test("A second concurrent run() throws alreadyRunning")
    func runTwice() async throws {
        // Manual start: the timer sleeper appears only once the first run() has claimed the instance.
        let harness = PipelineHarness { $0.startsAutomatically = false }
        try await withThrowingTaskGroup(of: Void.self) { group in
            group.addTask { try? await harness.binoban.run() }
            try await harness.clock.waitForSleepers(count: 1)
            await #expect(throws: BinobanError.self) { try await harness.binoban.run() }
            group.cancelAll()
        }
    }

    @Test("shutdown(gracePeriod:) gives up when the deadline passes first and keeps the batch")
    func shutdownDeadline() async throws {
        let harness = PipelineHarness(defaultAnswer: 503, random: FixedRandomSource(unitValues: [0.5]))
        await harness.settle()
        harness.binoban.track(name: "a")
        try await harness.storage.waitForStoredEvents(count: 1)
        let start = harness.clock.now
        async let result = harness.binoban.shutdown(gracePeriod: .seconds(2))
        // The first request failed; the pipeline sleeps until the backoff (500 ms) ends, before the deadline.
        _ = try await harness.transport.waitForRequests(count: 1)
        try await harness.clock.waitUntilSleepers { $0.contains(start.advanced(by: .milliseconds(500))) }
        harness.clock.advance(by: .seconds(2))
        #expect(await result.outcome == .interrupted)
        #expect(await harness.memory.finishedBatchCount == 1)
        harness.binoban.track(name: "ignored")
        #expect(harness.transport.requests.count <= 3)
    }

    @Test("Flushes asked for while an upload runs do not start parallel uploads; every event goes exactly once")
    func flushDuringUpload() async throws {
        let harness = PipelineHarness(script: [503], random: FixedRandomSource(unitValues: [0.5]))
        await harness.settle()
        harness.binoban.track(name: "a")
        async let first = harness.binoban.flushAndWait()
        let start = harness.clock.now
        try await harness.clock.waitUntilSleepers { $0.contains(start.advanced(by: .milliseconds(500))) }
        harness.binoban.track(name: "b")
        harness.binoban.flush()
        harness.binoban.flush()
        try await harness.storage.waitForStoredEvents(count: 2)
        #expect(harness.transport.requests.count == 1)
        harness.clock.advance(by: .milliseconds(500))
        #expect(await first.outcome == .completed)
        #expect(await harness.binoban.flushAndWait().outcome == .completed)
        #expect(try harness.uploadedEvents().map(\.event) == ["a", "a", "b"])
        #expect(harness.transport.requests.count == 3)
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("A cancelled flush() returns interrupted at once")
    func cancelledFlush() async throws {
        let harness = PipelineHarness(defaultAnswer: 503)
        await harness.settle()
        harness.binoban.track(name: "a")
        let task = Task { await harness.binoban.flushAndWait() }
        // The first request failed: the flush now waits out the backoff.
        _ = try await harness.transport.waitForRequests(count: 1)
        task.cancel()
        #expect(await task.value.outcome == .interrupted)
        _ = await harness.binoban.shutdown(gracePeriod: .zero)
    }
}
