import FalconCoreTesting
import Foundation
import Testing

@Suite("Test kit: manual clock and executor")
struct ManualFalconClockTests {
    @Test func firesDueTimersInDeadlineThenSchedulingOrder() {
        let executor = ManualFalconExecutor()
        let clock = ManualFalconClock(executor: executor)
        let fired = LockedValue([String]())
        func at(_ ms: Int64, _ name: String) -> any FalconTimerHandle {
            clock.schedule(
                FalconTimerRequest(deadline: .milliseconds(ms)) {
                    fired.withLock { $0.append("\(name)@\(clock.now())") }
                    executor.enqueue { fired.withLock { $0.append("job \(name)") } }
                })
        }
        _ = at(300, "c")
        _ = at(100, "a")
        let cancelled = at(200, "x")
        _ = at(100, "b")
        cancelled.cancel()
        clock.advance(by: .milliseconds(250))
        #expect(fired.withLock { $0 } == ["a@0.1 seconds", "job a", "b@0.1 seconds", "job b"])
        #expect(clock.now() == .milliseconds(250))
        #expect(clock.pendingTimerCount == 1)
        clock.advance(by: .milliseconds(50))
        #expect(fired.withLock { $0 }.suffix(2) == ["c@0.3 seconds", "job c"])
        #expect(clock.wallTime() == Date(timeIntervalSince1970: 1_783_512_000.3))
    }

    @Test func executorRunsJobsEnqueuedByJobs() {
        let executor = ManualFalconExecutor()
        let order = LockedValue([Int]())
        executor.enqueue {
            order.withLock { $0.append(1) }
            executor.enqueue { order.withLock { $0.append(3) } }
        }
        executor.enqueue { order.withLock { $0.append(2) } }
        #expect(order.withLock { $0 }.isEmpty)
        #expect(executor.runAll() == 3)
        #expect(order.withLock { $0 } == [1, 2, 3])
    }

    @Test func sequentialIDs() {
        let ids = SequentialFalconIDSource(prefix: "s")
        #expect([ids.makeSessionID(), ids.makeSessionID()] == ["s-1", "s-2"])
    }
}
