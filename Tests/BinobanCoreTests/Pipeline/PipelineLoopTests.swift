import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// An actor on a ``LoopThread``, as the pipeline loop is.
private actor OnLoopThread {
    let thread = LoopThread(label: "test.loop")
    nonisolated var unownedExecutor: UnownedSerialExecutor { thread.asUnownedSerialExecutor() }
    private var calls = 0

    /// Counts the calls made to it.
    func call() -> Int {
        calls += 1
        return calls
    }

    func stop() { thread.stop() }
}

@Suite("Pipeline loop: one thread, one wait")
struct PipelineLoopTests {
    /// The loop of a harness's instance.
    private func loop(of harness: PipelineHarness) throws -> PipelineLoop {
        try #require(harness.binoban.runtime?.driver as? PipelineLoop)
    }

    @Test("An idle instance's loop waits for its one deadline and takes no turn before it")
    func idleLoopDoesNotTurn() async throws {
        let harness = PipelineHarness { $0.flushInterval = 30 }
        await harness.settle()
        let loop = try loop(of: harness)
        let start = harness.clock.now
        // One timer, the flush interval: nothing else would wake the loop.
        try await harness.clock.waitUntilSleepers { $0 == [start.advanced(by: .seconds(30))] }
        await harness.binoban.waitUntilQuiet()
        let turns = loop.turns
        harness.clock.advance(by: .seconds(29))
        await harness.binoban.waitUntilQuiet()
        #expect(loop.turns == turns)
        #expect(await harness.binoban.timeUntilNextDeadline() == .seconds(1))
        // At the deadline the loop takes one turn (the interval flush finds nothing stored and sends nothing).
        harness.clock.advance(by: .seconds(1))
        try await harness.clock.waitUntilSleepers { $0 == [start.advanced(by: .seconds(60))] }
        await harness.binoban.waitUntilQuiet()
        #expect(loop.turns == turns + 1)
        #expect(harness.transport.requests.isEmpty)
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("Events tracked while the loop is busy wake it at most once per drain")
    func signalsOncePerDrain() async throws {
        let harness = PipelineHarness { $0.flushAt = 1000 }
        await harness.settle()
        let loop = try loop(of: harness)
        let turns = loop.turns
        for index in 0..<500 { harness.binoban.track(name: "e\(index)") }
        try await harness.storage.waitForStoredEvents(count: 500)
        await harness.binoban.waitUntilQuiet()
        // However the 500 calls interleaved with the loop, each turn drained everything queued.
        let taken = loop.turns - turns
        #expect(taken >= 1 && taken <= 500)
        #expect(harness.binoban.statistics.storedEvents == 500)
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("A wake before the park ends it at once; a park without deadline waits for a wake")
    func wakeEndsPark() async {
        let thread = LoopThread(label: "test.loop")
        thread.wake()
        thread.park(until: nil)
        // Whether the wake comes before or after the park begins, the park ends. The waker is a thread of its own:
        // a dispatch queue would share the pool whose thread this park blocks.
        Thread.detachNewThread { thread.wake() }
        thread.park(until: nil)
        thread.stop()
    }

    @Test("A park that holds signals lasts until its deadline although a wake came")
    func heldParkLastsUntilDeadline() async {
        let thread = LoopThread(label: "test.loop")
        let clock = ContinuousClock()
        let start = clock.now
        thread.wake()
        thread.park(until: start.advanced(by: .milliseconds(20)), holdingSignals: true)
        #expect(clock.now >= start.advanced(by: .milliseconds(20)))
        // The held wake was consumed with the park.
        thread.park(until: clock.now)
        thread.stop()
    }

    @Test("Jobs sent to a stopped loop thread still run, in order")
    func stoppedThreadRunsJobs() async {
        let onLoop = OnLoopThread()
        #expect(await onLoop.call() == 1)
        await onLoop.stop()
        // The thread has exited (or is exiting): these calls run on the fallback queue.
        for expected in 2...4 { #expect(await onLoop.call() == expected) }
    }
}
