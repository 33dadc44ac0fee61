import SDKCoreCommon
import TestSupport
import Testing

@testable import BinobanCore

@Suite("Error report rate limit")
struct ErrorReportLimiterTests {
    @Test("One report per kind per 10 s; the rest are summarised when the window ends")
    func limit() {
        var limiter = ErrorReportLimiter()
        let a = BinobanError(kind: .uploadFailed, message: "a")
        let b = BinobanError(kind: .batchRejected, message: "b")
        #expect(limiter.admit(a, at: .zero)?.suppressedCount == 0)
        #expect(limiter.nextDeadline == nil)
        #expect(limiter.admit(a, at: .seconds(3)) == nil)
        #expect(limiter.nextDeadline == .seconds(10))
        #expect(limiter.admit(b, at: .seconds(4)) != nil)
        #expect(limiter.admit(a, at: .seconds(9)) == nil)
        #expect(limiter.handleDeadline(at: .seconds(9)).isEmpty)
        let summaries = limiter.handleDeadline(at: .seconds(10))
        #expect(summaries.count == 1)
        #expect(summaries.first?.kind == .uploadFailed)
        #expect(summaries.first?.suppressedCount == 2)
        #expect(summaries.first?.message.contains("2 reports") == true)
        #expect(summaries.first?.message.contains("the last: a") == true)
        #expect(summaries.first?.description.contains("2 similar reports suppressed") == true)
        #expect(limiter.nextDeadline == nil)
        // The summary opened a new window at 10 s.
        #expect(limiter.admit(a, at: .seconds(15)) == nil)
        #expect(limiter.nextDeadline == .seconds(20))
    }

    @Test("Suppressed reports add their event counts to the summary")
    func eventCounts() {
        var limiter = ErrorReportLimiter()
        let first = limiter.admit(drop(.writeStageOverflow, 5), at: .zero)
        #expect(first?.eventCount == 5)
        #expect(first?.description == "writeStageOverflow: dropped (5 events)")
        #expect(limiter.admit(drop(.writeStageOverflow, 7), at: .seconds(1)) == nil)
        #expect(limiter.admit(drop(.writeStageOverflow, 0), at: .seconds(2)) == nil)
        #expect(limiter.admit(drop(.writeStageOverflow, 11), at: .seconds(3)) == nil)
        let summary = limiter.handleDeadline(at: .seconds(12))
        #expect(summary.map(\.eventCount) == [18])
        #expect(summary.map(\.suppressedCount) == [3])
        #expect(summary.first?.description.hasSuffix("(18 events, 3 similar reports suppressed)") == true)
    }

    @Test("nextDeadline is the earliest end of a window holding suppressed reports")
    func nextDeadline() {
        var limiter = ErrorReportLimiter(window: .seconds(10))
        _ = limiter.admit(drop(.storageFull, 1), at: .seconds(0))
        _ = limiter.admit(drop(.pausedDrop, 1), at: .seconds(2))
        _ = limiter.admit(drop(.oversizeEvent, 1), at: .seconds(4))
        #expect(limiter.nextDeadline == nil)
        _ = limiter.admit(drop(.oversizeEvent, 1), at: .seconds(5))
        #expect(limiter.nextDeadline == .seconds(14))
        _ = limiter.admit(drop(.pausedDrop, 1), at: .seconds(6))
        #expect(limiter.nextDeadline == .seconds(12))
        #expect(limiter.handleDeadline(at: .seconds(12)).map(\.kind) == [.pausedDrop])
        #expect(limiter.nextDeadline == .seconds(14))
        #expect(limiter.handleDeadline(at: .seconds(20)).map(\.kind) == [.oversizeEvent])
        #expect(limiter.nextDeadline == nil)
    }

    @Test("A report after an unhandled deadline is delivered with the pending totals folded in")
    func lateDeadlineFolds() {
        var limiter = ErrorReportLimiter()
        _ = limiter.admit(drop(.storageEviction, 3), at: .zero)
        #expect(limiter.admit(drop(.storageEviction, 4), at: .seconds(1)) == nil)
        let delivered = limiter.admit(drop(.storageEviction, 10), at: .seconds(30))
        #expect(delivered?.eventCount == 14)
        #expect(delivered?.suppressedCount == 1)
        #expect(limiter.nextDeadline == nil)
        #expect(limiter.handleDeadline(at: .seconds(100)).isEmpty)
    }

    @Test("drainPending returns every pending summary, ended or not, once")
    func drain() {
        var limiter = ErrorReportLimiter()
        _ = limiter.admit(drop(.storageFull, 1), at: .zero)
        _ = limiter.admit(drop(.storageFull, 2), at: .seconds(1))
        _ = limiter.admit(drop(.pausedDrop, 3), at: .seconds(1))
        _ = limiter.admit(drop(.pausedDrop, 4), at: .seconds(2))
        _ = limiter.admit(drop(.pausedDrop, 5), at: .seconds(3))
        let drained = limiter.drainPending()
        #expect(drained.map(\.kind) == [.pausedDrop, .storageFull])
        #expect(drained.map(\.eventCount) == [9, 2])
        #expect(drained.map(\.suppressedCount) == [2, 1])
        #expect(limiter.drainPending().isEmpty)
        #expect(limiter.nextDeadline == nil)
    }

    @Test("Randomized: no event count is lost, and a kind is delivered at most once per window")
    func invariant() {
        for seed: UInt64 in 1...50 {
            var random = SplitMix64(seed: seed)
            let window = Duration.seconds(10)
            var limiter = ErrorReportLimiter(window: window)
            let kinds: [BinobanError.Kind] = [.writeStageOverflow, .storageFull, .pausedDrop, .uploadFailed]
            var now = Duration.zero
            var admittedEvents = 0
            var admittedReports = 0
            var deliveredEvents = 0
            var deliveredReports = 0
            var lastDelivery: [String: Duration] = [:]
            var windowViolations = 0

            // A delivered report stands for itself and the reports folded into it; a summary for the folded ones.
            func record(_ reports: [BinobanError], at instant: Duration, summaries: Bool = true) {
                for report in reports {
                    deliveredEvents += report.eventCount
                    deliveredReports += (summaries ? 0 : 1) + report.suppressedCount
                    if let last = lastDelivery[report.kind.name], instant - last < window { windowViolations += 1 }
                    lastDelivery[report.kind.name] = instant
                }
            }

            for _ in 0..<500 {
                now += .milliseconds(Int64(random.next() % 4000))
                switch random.next() % 10 {
                case 0..<7:
                    let kind = kinds[Int(random.next() % UInt64(kinds.count))]
                    let count = Int(random.next() % 50)
                    admittedEvents += count
                    admittedReports += 1
                    record(limiter.admit(drop(kind, count), at: now).map { [$0] } ?? [], at: now, summaries: false)
                case 7, 8:
                    // The driver wakes at the deadline (or a little late).
                    if let deadline = limiter.nextDeadline, deadline <= now + .seconds(2) {
                        now = max(now, deadline)
                        record(limiter.handleDeadline(at: now), at: now)
                    }
                default:
                    record(limiter.handleDeadline(at: now), at: now)
                }
            }
            for summary in limiter.drainPending() {
                deliveredEvents += summary.eventCount
                deliveredReports += summary.suppressedCount
            }
            #expect(deliveredEvents == admittedEvents, "seed \(seed)")
            #expect(deliveredReports == admittedReports, "seed \(seed)")
            #expect(windowViolations == 0, "seed \(seed)")
            #expect(limiter.nextDeadline == nil, "seed \(seed)")
        }
    }

    @Test("The reporter delivers summaries only when asked, from its elapsed time")
    func reporter() {
        let now = LockedValue(Duration.zero)
        let received = LockedValue<[BinobanError]>([])
        let reporter = ErrorReporter(handler: { error in received.withLock { $0.append(error) } }) {
            now.withLock { $0 }
        }
        reporter.report(.pausedDrop, "paused", eventCount: 2)
        reporter.report(.pausedDrop, "paused", eventCount: 3)
        reporter.report(.keyValueStore, "no identity")
        #expect(received.withLock { $0.map(\.eventCount) } == [2, 0])
        #expect(reporter.nextDeadline == .seconds(10))
        now.withLock { $0 = .seconds(9) }
        reporter.deliverDue()
        #expect(received.withLock { $0.count } == 2)
        now.withLock { $0 = .seconds(10) }
        reporter.deliverDue()
        #expect(received.withLock { $0.last?.eventCount } == 3)
        #expect(reporter.nextDeadline == nil)
        reporter.report(.pausedDrop, "paused", eventCount: 4)
        reporter.deliverPending()
        #expect(received.withLock { $0.map(\.eventCount) } == [2, 0, 3, 4])
    }

    private func drop(_ kind: BinobanError.Kind, _ count: Int) -> BinobanError {
        BinobanError(kind: kind, message: "dropped", eventCount: count)
    }
}
