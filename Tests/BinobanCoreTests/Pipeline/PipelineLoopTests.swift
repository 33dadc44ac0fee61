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

#if os(Linux)
private let isLinux = true
#else
private let isLinux = false
#endif

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

    @Test("An idle instance's loop thread does not wake while time passes: only a call wakes it")
    func idleLoopDoesNotWake() async throws {
        let harness = PipelineHarness { $0.flushInterval = 30 }
        await harness.settle()
        let loop = try loop(of: harness)
        let start = harness.clock.now
        try await harness.clock.waitUntilSleepers { $0 == [start.advanced(by: .seconds(30))] }
        await harness.binoban.waitUntilQuiet()
        // The quiet call's own wake has been taken: the loop parked again before it answered.
        let (wakeUps, turns) = (loop.thread.wakeUps, loop.turns)
        for _ in 0..<29 { harness.clock.advance(by: .seconds(1)) }
        // The only timer is still the flush interval's: nothing was set, fired or re-armed meanwhile.
        try await harness.clock.waitUntilSleepers { $0 == [start.advanced(by: .seconds(30))] }
        #expect(loop.thread.wakeUps == wakeUps)
        // One more quiet call wakes the thread exactly once and finds nothing to do (no turn).
        await harness.binoban.waitUntilQuiet()
        #expect(loop.thread.wakeUps == wakeUps + 1)
        #expect(loop.turns == turns)
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

    @Test("A park that holds signals lasts until its deadline although a signal of work came")
    func heldParkLastsUntilDeadline() async {
        let thread = LoopThread(label: "test.loop")
        let clock = ContinuousClock()
        let start = clock.now
        thread.signalWork()
        thread.park(until: start.advanced(by: .milliseconds(20)), holdingSignals: true)
        #expect(clock.now >= start.advanced(by: .milliseconds(20)))
        // The held wake was consumed with the park.
        thread.park(until: clock.now)
        thread.stop()
    }

    @Test("A wake ends a park that holds signals; a signal of work ends only a park that does not")
    func urgentWakeEndsHeldPark() async {
        let thread = LoopThread(label: "test.loop")
        let clock = ContinuousClock()
        // A signal of work before an idle park ends it at once.
        thread.signalWork()
        thread.park(until: clock.now.advanced(by: .seconds(3600)))
        // A signal of work and then a wake: a held park an hour long still ends at once.
        thread.signalWork()
        thread.wake()
        thread.park(until: clock.now.advanced(by: .seconds(3600)), holdingSignals: true)
        thread.stop()
    }

    @Test("Where parks delay signals, a wake ends the park at once, whatever its delay, and leaves nothing behind")
    func wakeEndsDelayedPark() async throws {
        let thread = LoopThread(label: "test.loop")
        try #require(thread.delaysSignals || !isLinux)
        guard thread.delaysSignals else { return thread.stop() }
        let clock = ContinuousClock()
        let hour = 3_600_000_000_000
        // A signal of work that would end the park an hour later, then a wake: the park ends at once.
        var start = clock.now
        thread.signalWork()
        thread.wake()
        thread.park(timeoutNanoseconds: nil, signalDelayNanoseconds: hour)
        #expect(clock.now < start.advanced(by: .seconds(3600)))
        // Both were consumed with that park: the next one lasts its 5 ms timeout.
        start = clock.now
        thread.park(timeoutNanoseconds: 5_000_000, signalDelayNanoseconds: hour)
        #expect(clock.now >= start.advanced(by: .milliseconds(5)))
        thread.stop()
    }

    @Test("The loop's park in nanoseconds keeps its timeout, its signal delay, and ends at once on a wake")
    func nanosecondParkKeepsTheSameRules() async throws {
        let thread = LoopThread(label: "test.loop")
        let clock = ContinuousClock()
        let hour = 3_600_000_000_000
        // Nothing comes: the park lasts its 20 ms timeout.
        var start = clock.now
        thread.park(timeoutNanoseconds: 20_000_000, signalDelayNanoseconds: nil)
        #expect(clock.now >= start.advanced(by: .milliseconds(20)))
        // A timeout that has passed returns at once; so does a wake, whatever the timeout and delay.
        start = clock.now
        thread.park(timeoutNanoseconds: -5, signalDelayNanoseconds: hour)
        thread.wake()
        thread.park(timeoutNanoseconds: hour, signalDelayNanoseconds: hour)
        #expect(clock.now < start.advanced(by: .seconds(3600)))
        // A signal of work without a delay ends the park at once.
        start = clock.now
        thread.signalWork()
        thread.park(timeoutNanoseconds: hour, signalDelayNanoseconds: nil)
        #expect(clock.now < start.advanced(by: .seconds(3600)))
        try #require(thread.delaysSignals || !isLinux)
        if thread.delaysSignals {
            // A signal an hour's delay away does not end the park before its 20 ms timeout; with a 2 ms delay it
            // ends the park 2 ms after it came.
            start = clock.now
            thread.signalWork()
            thread.park(timeoutNanoseconds: 20_000_000, signalDelayNanoseconds: hour)
            #expect(clock.now >= start.advanced(by: .milliseconds(20)))
            start = clock.now
            thread.signalWork()
            thread.park(timeoutNanoseconds: nil, signalDelayNanoseconds: 2_000_000)
            #expect(clock.now >= start.advanced(by: .milliseconds(2)))
        }
        thread.stop()
    }

    @Test("On Linux the loop's thread has a name of its own")
    func loopThreadIsNamed() async throws {
        #if os(Linux)
        let onLoop = OnLoopThread()
        #expect(await onLoop.call() == 1)
        let tasks = try FileManager.default.contentsOfDirectory(atPath: "/proc/self/task")
        let names = tasks.compactMap { try? String(contentsOfFile: "/proc/self/task/\($0)/comm", encoding: .utf8) }
        #expect(names.contains { $0.trimmingCharacters(in: .newlines) == LoopThread.threadName })
        await onLoop.stop()
        #endif
    }

    @Test("Jobs sent to a stopped loop thread still run, in order")
    func stoppedThreadRunsJobs() async {
        let onLoop = OnLoopThread()
        #expect(await onLoop.call() == 1)
        await onLoop.stop()
        // The thread has exited (or is exiting): these calls run on the fallback queue.
        for expected in 2...4 { #expect(await onLoop.call() == expected) }
    }

    @Test(
        "A graceful shutdown that waits on a closed gate is quiet: the closed intake is not work",
        .timeLimit(.minutes(10)))
    func shutdownBehindAClosedGateIsQuiet() async throws {
        let harness = PipelineHarness(script: [.retryAfter(1)])
        await harness.settle()
        harness.binoban.track(name: "a")
        harness.binoban.flush()
        await harness.binoban.waitUntilQuiet()
        let start = harness.clock.now
        let binoban = harness.binoban
        let shutdown = Task { await binoban.shutdown(gracePeriod: .seconds(2)) }
        // The shutdown takes the close and waits for the gate (open at 1 s): the loop has nothing to do until
        // then. This call never returned while a closed intake counted as work.
        try await harness.clock.waitUntilSleepers { $0.contains(start.advanced(by: .seconds(1))) }
        await harness.binoban.waitUntilQuiet()
        harness.clock.advance(by: .seconds(1))
        let result = await shutdown.value
        #expect(result.uploadedEvents == 1, "\(result)")
        // The 429 and the retry that was answered 200.
        #expect(try harness.uploadedEvents().map(\.event) == ["a", "a"])
    }
}
