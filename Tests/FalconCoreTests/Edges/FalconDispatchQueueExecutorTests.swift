import Dispatch
import FalconCore
import FalconCoreTesting
import Testing

/// The default executor batches its jobs into shared Dispatch blocks (Docs/Decisions/0109); what a host relies
/// on is unchanged: every job once, one at a time, in enqueue order, never inside `enqueue`.
@Suite("FalconDispatchQueueExecutor")
struct FalconDispatchQueueExecutorTests {
    /// Waits until every job enqueued on `executor` so far has run.
    static func settle(_ executor: FalconDispatchQueueExecutor) async {
        await withCheckedContinuation { (done: CheckedContinuation<Void, Never>) in executor.enqueue { done.resume() } }
    }

    @Test("jobs run once each, in enqueue order; a job's own job runs after it returns, never inside enqueue")
    func fifoAndNotReentrant() async {
        let executor = FalconDispatchQueueExecutor(queue: DispatchQueue(label: "test.fifo"))
        let log = LockedValue([Int]())
        for index in 0..<1_000 {
            executor.enqueue {
                log.withLock { $0.append(index) }
                if index % 100 == 0 {
                    executor.enqueue { log.withLock { $0.append(10_000 + index) } }
                    log.withLock { $0.append(20_000 + index) }
                }
            }
        }
        await Self.settle(executor)
        let values = log.withLock { $0 }
        #expect(values.count == 1_020)
        #expect(values.filter { $0 < 10_000 } == Array(0..<1_000))
        #expect(values.filter { (10_000..<20_000).contains($0) } == Array(stride(from: 10_000, to: 11_000, by: 100)))
        for index in stride(from: 0, to: 1_000, by: 100) {
            let returned = values.firstIndex(of: 20_000 + index) ?? .max
            let own = values.firstIndex(of: 10_000 + index) ?? -1
            #expect(returned < own)
        }
    }

    /// Runs `enqueue` while the executor's queue is held by a block of its own, then queues the host's block
    /// (which logs 0), releases the queue and returns the log once every job has run.
    static func logWhileHeld(
        _ label: String, _ enqueue: (FalconDispatchQueueExecutor, LockedValue<[Int]>) -> Void
    ) async -> [Int] {
        let queue = DispatchQueue(label: label)
        let executor = FalconDispatchQueueExecutor(queue: queue)
        let gate = DispatchSemaphore(value: 0)
        let log = LockedValue([Int]())
        queue.async { gate.wait() }
        enqueue(executor, log)
        queue.async { log.withLock { $0.append(0) } }  // the host's block, queued after the executor's
        gate.signal()
        await settle(executor)
        return log.withLock { $0 }
    }

    @Test("a job enqueued while the block runs joins it; the host's own block on the queue waits behind both")
    func burstSharesOneBlock() async {
        let log = await Self.logWhileHeld("test.burst") { executor, log in
            executor.enqueue {
                log.withLock { $0.append(1) }
                executor.enqueue { log.withLock { $0.append(2) } }
            }
        }
        #expect(log == [1, 2, 0])
    }

    @Test("a long burst yields the queue after 64 jobs, then continues in order")
    func longBurstYields() async {
        let log = await Self.logWhileHeld("test.yield") { executor, log in
            for index in 1...200 { executor.enqueue { log.withLock { $0.append(index) } } }
        }
        #expect(log == Array(1...64) + [0] + Array(65...200))
    }
}
