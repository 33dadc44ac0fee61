import BinobanCoreTesting
import Testing

@testable import BinobanCore

/// The retry schedule a flush keeps during a persistent failure, and how long an awaited flush waits for a closed
/// upload gate, on virtual time (every instant is given, no clock runs).
@Suite("Retry schedule")
struct RetryScheduleTests {
    typealias Instant = MachineRig.Instant

    let first = BinobanBatchID(sequence: 1)
    let second = BinobanBatchID(sequence: 2)

    func at(_ milliseconds: Int64) -> Instant { Instant(offset: .milliseconds(milliseconds)) }

    func resumed(_ actions: [PipelineAction], _ waiter: UInt64) -> BinobanFlushResult.Outcome? {
        actions.lazy.compactMap { if case .resume(waiter, let result) = $0 { result.outcome } else { nil } }.first
    }

    func sends(_ actions: [PipelineAction]) -> [BinobanBatchID] {
        actions.compactMap { if case .send(let id) = $0 { id } else { nil } }
    }

    @Test(
        "A persistent 503: each batch retries on its own 1, 2, 4 s schedule, and the first batch kept ends the pass"
    )
    func persistentFailureEndsOnTheSchedule() {
        var rig = MachineRig(flushAt: 1000, maxRetries: 3, concurrent: 2)
        rig.startEmpty()
        #expect(rig.write(1, tickets: [.init(waiterID: 7)]) == [.list(limit: 20)])
        #expect(rig.feed(.listed([first, second])) == [.read(first), .read(second)])
        #expect(rig.at(0, .read(first, eventCount: 1, bytes: 10)) == [.send(first)])
        // Out of phase: the second batch is read while the first one's backoff runs, and joins its retries.
        _ = rig.at(100, .answered(first, status: 503, retryAfter: nil, jitter: 0.5))
        #expect(rig.machine.gateUntil == at(600))  // 0.5 × 1 s: the first batch's retry 1
        #expect(rig.at(200, .read(second, eventCount: 1, bytes: 10)) == [])
        #expect(sends(rig.at(600, .timerFired)) == [first, second])
        _ = rig.at(700, .answered(first, status: 503, retryAfter: nil, jitter: 0.5))
        #expect(rig.machine.gateUntil == at(1700))  // 0.5 × 2 s: the first batch's retry 2
        _ = rig.at(800, .answered(second, status: 503, retryAfter: nil, jitter: 0.5))
        // The second batch's retry 1 (0.5 s) ends before the running backoff: the later one holds.
        #expect(rig.machine.gateUntil == at(1700))
        #expect(sends(rig.at(1700, .timerFired)) == [first, second])
        _ = rig.at(1800, .answered(first, status: 503, retryAfter: nil, jitter: 0.5))
        #expect(rig.machine.gateUntil == at(3800))  // 0.5 × 4 s: retry 3
        _ = rig.at(1900, .answered(second, status: 503, retryAfter: nil, jitter: 0.5))
        #expect(rig.machine.gateUntil == at(3800))
        #expect(sends(rig.at(3800, .timerFired)) == [first, second])
        // The first batch used its retries: it is kept and reported, and the pass ends.
        let kept = rig.at(3900, .answered(first, status: 503, retryAfter: nil, jitter: 0.5))
        #expect(kept.contains(.forget(first)))
        #expect(kept.contains { if case .report(.uploadFailed, _, _, _, _, _) = $0 { true } else { false } })
        #expect(resumed(kept, 7) == nil)
        // The wait before the next pass: 0.5 × the ceiling of the instance's streak (4 failed rounds: 8 s).
        #expect(rig.machine.failureStreak == 4)
        #expect(rig.machine.gateUntil == at(7900))
        // The second batch, still out, is kept when it fails: no retry at a ceiling the first batch grew.
        let ended = rig.at(4000, .answered(second, status: 503, retryAfter: nil, jitter: 0.5))
        #expect(ended.contains(.forget(second)))
        #expect(resumed(ended, 7) == .keptForRetry)
        #expect(rig.machine.work.isEmpty)
        #expect(rig.machine.statistics.requests.transientFailures == 4 + 3)
        #expect(rig.at(7900, .timerFired) == [])
    }

    @Test("A batch read after its pass kept another is kept at once, unsent")
    func batchReadAfterThePassKeptIsKept() {
        var rig = MachineRig(flushAt: 1000, maxRetries: 1, concurrent: 2)
        rig.startEmpty()
        #expect(rig.write(1, tickets: [.init(waiterID: 7)]) == [.list(limit: 20)])
        #expect(rig.feed(.listed([first, second])) == [.read(first), .read(second)])
        #expect(rig.at(0, .read(first, eventCount: 1, bytes: 10)) == [.send(first)])
        _ = rig.at(0, .answered(first, status: 503, retryAfter: nil, jitter: 0.5))
        #expect(sends(rig.at(500, .timerFired)) == [first])
        // The first batch used its retries while the second was still being read (a slow disk).
        let kept = rig.at(600, .answered(first, status: 503, retryAfter: nil, jitter: 0.5))
        #expect(kept.contains(.forget(first)))
        let read = rig.at(700, .read(second, eventCount: 1, bytes: 10))
        #expect(read.contains(.forget(second)))
        #expect(sends(read).isEmpty)
        #expect(resumed(read, 7) == .keptForRetry)
        #expect(rig.machine.work.isEmpty)
        #expect(rig.machine.statistics.requests.transientFailures == 2)
    }

    @Test("An awaited flush behind a Retry-After longer than the limit ends at once; the batch goes when it opens")
    func awaitedFlushBehindLongRetryAfter() {
        var rig = MachineRig(flushAt: 1000, maxRetries: 3, retryAfterLimit: .seconds(600))
        rig.startEmpty()
        #expect(rig.write(1, tickets: [.init(waiterID: 7)]) == [.list(limit: 20)])
        #expect(rig.feed(.listed([first])) == [.read(first)])
        #expect(rig.at(0, .read(first, eventCount: 1, bytes: 10)) == [.send(first)])
        let answer = rig.at(0, .answered(first, status: 429, retryAfter: .seconds(1800), jitter: 0.5))
        #expect(resumed(answer, 7) == .keptForRetry)
        #expect(rig.machine.gateUntil == at(600_000))  // capped at retryAfterLimit
        // The batch is not given up: it is sent when the window ends.
        #expect(rig.at(599_999, .timerFired) == [])
        #expect(rig.at(600_000, .timerFired) == [.send(first)])
        #expect(rig.at(600_100, .answered(first, status: 200, retryAfter: nil, jitter: 0.5)) == [.remove(first)])
        #expect(rig.machine.statistics.uploadedEvents == 1)
    }

    @Test("A hold no longer than the limit keeps the awaited flushes waiting")
    func holdAtTheLimitIsWaitedFor() {
        var rig = MachineRig(flushAt: 1000, maxRetries: 3, awaitedFlushGateLimit: .seconds(60))
        rig.startEmpty()
        #expect(rig.write(1, tickets: [.init(waiterID: 7)]) == [.list(limit: 20)])
        _ = rig.feed(.listed([first]))
        _ = rig.at(0, .read(first, eventCount: 1, bytes: 10))
        let answer = rig.at(0, .answered(first, status: 429, retryAfter: .seconds(60), jitter: 0.5))
        #expect(resumed(answer, 7) == nil)
        // A flush awaited meanwhile merges into a follow-up behind the same 60 s hold: it waits too.
        #expect(rig.write(1, tickets: [.init(waiterID: 8)]).allSatisfy { resumed([$0], 8) == nil })
        #expect(rig.at(60_000, .timerFired) == [.send(first)])
        #expect(rig.at(60_100, .answered(first, status: 200, retryAfter: nil, jitter: 0.5)) == [.remove(first)])
        let done = rig.feed(.removed(first))
        #expect(resumed(done, 7) == .completed)
    }

    @Test("With a limit below the backoff, an awaited flush ends as soon as a backoff above it is drawn")
    func limitBelowTheBackoff() {
        var rig = MachineRig(flushAt: 1000, maxRetries: 3, awaitedFlushGateLimit: .milliseconds(400))
        rig.startEmpty()
        #expect(rig.write(1, tickets: [.init(waiterID: 7)]) == [.list(limit: 20)])
        _ = rig.feed(.listed([first]))
        _ = rig.at(0, .read(first, eventCount: 1, bytes: 10))
        // Retry 1 waits 0.5 × 1 s = 500 ms, more than 400 ms.
        let answer = rig.at(0, .answered(first, status: 503, retryAfter: nil, jitter: 0.5))
        #expect(resumed(answer, 7) == .keptForRetry)
        #expect(rig.at(500, .timerFired) == [.send(first)])
    }
}
