import FalconCore
import FalconCoreTesting
import Foundation
import TestSupport
import Testing

@Suite("System clock timers")
struct FalconSystemClockTests {
    /// After 100 000 executes that settle at once (loaded, then torn down), the clock holds no timer entry and
    /// no timer closure, although every load timeout's 15 s deadline is still ahead.
    @Test func settledExecutesReleaseTheirTimersAtOnce() {
        let clock = CountingClock()
        let executor = ManualFalconExecutor()
        let client = FalconClient(
            dependencies: FalconClientDependencies(
                executor: executor, clock: clock, idSource: SequentialFalconIDSource(), beaconTransport: nil,
                logHandler: InMemoryLogHandler()))
        client.initSdk(apiKey: "KEY")
        let surface = SettlingSurface()
        for _ in 0..<100_000 {
            client.execute(attributes: ["placement_details": ["view": "ORDER_STATUS"]], placement: .inline(surface))
            executor.runAll()
        }
        #expect(surface.teardowns.withLock { $0 } == 100_000)
        #expect(clock.scheduled.withLock { $0 } == 100_000)
        #expect(client.activeExecutionCount == 0)
        #expect(clock.inner.pendingTimerCount == 0)
        #expect(clock.liveClosures.withLock { $0 } == 0)
    }

    /// Timers fire in deadline order (ties in scheduling order) and cancelled ones never fire, over random
    /// deadlines a few milliseconds ahead and random cancellations.
    @Test(arguments: [UInt64(1), 2, 3])
    func firesInDeadlineOrderAndNeverAfterCancel(seed: UInt64) async throws {
        var random = SplitMix64(seed: seed)
        let clock = FalconSystemClock()
        let fired = LockedValue<[Int]>([])
        // Every deadline lies half a second ahead, so all timers are scheduled (and some cancelled) before
        // the first can fire, even on a loaded machine.
        let start = clock.now() + .milliseconds(500)
        var expected: [(deadline: Duration, index: Int)] = []
        var handles: [any FalconTimerHandle] = []
        for index in 0..<200 {
            let deadline = start + .milliseconds(Int64(random.next() % 4))
            handles.append(
                clock.schedule(FalconTimerRequest(deadline: deadline) { fired.withLock { $0.append(index) } }))
            expected.append((deadline, index))
        }
        var cancelled: Set<Int> = []
        for index in 0..<200 where random.next() % 3 == 0 {
            handles[index].cancel()
            handles[index].cancel()  // twice is harmless
            cancelled.insert(index)
        }
        try #require(clock.now() < start, "scheduling took longer than the margin; the ordering is not tested")
        #expect(clock.pendingTimerCount == 200 - cancelled.count)
        // A last timer after every other deadline: once it has run, every earlier one has had its turn.
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = clock.schedule(FalconTimerRequest(deadline: start + .milliseconds(10)) { done.resume() })
        }
        let order = expected.filter { !cancelled.contains($0.index) }
            .sorted { ($0.deadline, $0.index) < ($1.deadline, $1.index) }.map(\.index)
        #expect(fired.withLock { $0 } == order)
        #expect(clock.pendingTimerCount == 0)
    }

    /// A deadline already in the past (a late arm) still fires, at once.
    @Test func pastDeadlineStillFires() async {
        let clock = FalconSystemClock()
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in
            _ = clock.schedule(FalconTimerRequest(deadline: clock.now() - .seconds(5)) { done.resume() })
        }
        #expect(clock.pendingTimerCount == 0)
    }
}

/// Counts, through the clock edge, the timers the client schedules and the timer closures still alive
/// inside the system clock.
private final class CountingClock: FalconClock {
    let inner = FalconSystemClock()
    let scheduled = LockedValue(0)
    let liveClosures = LockedValue(0)

    func now() -> Duration { inner.now() }
    func wallTime() -> Date { inner.wallTime() }

    func schedule(_ request: FalconTimerRequest) -> any FalconTimerHandle {
        scheduled.withLock { $0 += 1 }
        let token = LiveToken(liveClosures)
        let action = request.action
        return inner.schedule(
            FalconTimerRequest(deadline: request.deadline) { withExtendedLifetime(token) { action() } })
    }
}

/// Alive exactly as long as the closure that captured it.
private final class LiveToken: Sendable {
    let counter: LockedValue<Int>

    init(_ counter: LockedValue<Int>) {
        self.counter = counter
        counter.withLock { $0 += 1 }
    }

    deinit { counter.withLock { $0 -= 1 } }
}

/// A web view whose page loads at once and whose host tears it down right after.
private final class SettlingSurface: FalconInlineSurface {
    let teardowns = LockedValue(0)

    func perform(_ request: FalconRenderRequest) {
        switch request.command {
        case .load:
            request.reporter.bridgeMessage(["type": "event", "name": "loaded", "data": ["height": 120]])
            request.reporter.hostTeardown()
        case .teardown:
            teardowns.withLock { $0 += 1 }
        default:
            break
        }
    }
}
