import BinobanCoreTesting
import Testing

@testable import BinobanCore

/// Drives a ``PipelineMachine`` on virtual time: every input is stamped with `now`, every action recorded.
struct MachineRig {
    typealias Instant = ManualClock.Instant
    var machine: PipelineMachine<Instant>
    var now = Instant(offset: .zero)

    init(
        flushAt: Int = 20, maxRetries: Int = 3, concurrent: Int = 1, backpressure: BinobanBackpressure = .dropOldest,
        retryAfterLimit: Duration = .seconds(600), hasTransport: Bool = true,
        awaitedFlushGateLimit: Duration = .seconds(60)
    ) {
        let rules = PipelineRules(
            maxFilesPerFlush: 20, maxRetries: maxRetries,
            backoff: BackoffSchedule(baseMillis: 1000, factor: 2, maxMillis: 60_000), retryAfterLimit: retryAfterLimit,
            maxConcurrentUploads: concurrent, backpressure: backpressure, hasTransport: hasTransport,
            awaitedFlushGateLimit: awaitedFlushGateLimit)
        machine = PipelineMachine(
            rules: rules, settings: .init(enabled: true, flushAt: flushAt, flushInterval: .seconds(3600)))
    }

    mutating func feed(_ input: PipelineInput<Instant>) -> [PipelineAction] {
        machine.handle(input, at: now)
    }

    mutating func at(_ milliseconds: Int64, _ input: PipelineInput<Instant>) -> [PipelineAction] {
        now = Instant(offset: .milliseconds(milliseconds))
        return machine.handle(input, at: now)
    }

    /// Starts on an empty storage: the startup pass lists nothing and ends.
    mutating func startEmpty() {
        #expect(feed(.started) == [.list(limit: 20)])
        #expect(feed(.listed([])) == [])
    }

    /// Writes `count` events in one drain with the given tickets; returns the actions after the write.
    mutating func write(
        _ count: Int, tickets: [EventIntake.FlushTicket] = [], report: BinobanStorageWriteReport? = nil
    ) -> [PipelineAction] {
        #expect(feed(.intakeHasWork) == [.takeDrain])
        var drain = PipelineDrain()
        drain.eventCount = count
        drain.acceptedEvents = count
        drain.tickets = tickets
        let actions = feed(.drained(drain))
        #expect(actions.contains { if case .write = $0 { true } else { false } })
        return feed(
            .written(
                report ?? BinobanStorageWriteReport(storedEvents: count), storedBytes: count * 10, moreInDrain: false))
    }

    /// Reads then sends `id`: returns the actions after the read.
    mutating func readAndSend(_ id: BinobanBatchID, events: Int = 1) -> [PipelineAction] {
        feed(.read(id, eventCount: events, bytes: events * 10))
    }
}

private let b1 = BinobanBatchID(sequence: 1)
private let b2 = BinobanBatchID(sequence: 2)

private func reports(_ actions: [PipelineAction]) -> [(BinobanError.Kind, Int)] {
    actions.compactMap { if case .report(let kind, _, let count, _, _, _) = $0 { (kind, count) } else { nil } }
}

@Suite("Pipeline machine")
struct PipelineMachineTests {
    @Test("A write that fails at the end of a drain lets the drain's awaited flush go on")
    func writeFailureEndsTheDrain() {
        var rig = MachineRig(flushAt: 100)
        rig.startEmpty()
        #expect(rig.feed(.intakeHasWork) == [.takeDrain])
        #expect(rig.machine.writeStage == .taking)
        var drain = PipelineDrain()
        drain.eventCount = 2
        drain.acceptedEvents = 2
        drain.tickets = [.init(waiterID: 7)]
        #expect(rig.feed(.drained(drain)) == [.write(.refuse)])
        let actions = rig.feed(.writeFailed(lost: 2, moreInDrain: false, message: "disk"))
        #expect(reports(actions).map(\.1) == [2])
        #expect(actions.last == .list(limit: 20))
        #expect(rig.machine.writeStage == .idle)
        let resumed = rig.feed(.listed([]))
        guard case .resume(7, let result)? = resumed.first else {
            Issue.record("the flush was not resumed: \(resumed)")
            return
        }
        #expect(result.outcome == .completed)
        #expect(result.droppedEvents == 2)
    }

    @Test("A count flush lists, reads and sends one batch; a 2xx deletes it and counts it uploaded")
    func countFlushUploads() {
        var rig = MachineRig(flushAt: 2)
        rig.startEmpty()
        #expect(rig.write(2) == [.list(limit: 20)])
        #expect(rig.feed(.listed([b1])) == [.read(b1)])
        #expect(rig.readAndSend(b1, events: 2) == [.send(b1)])
        #expect(rig.feed(.answered(b1, status: 200, retryAfter: nil, jitter: 0)) == [.remove(b1)])
        #expect(rig.feed(.removed(b1)) == [])
        let stats = rig.machine.statistics
        #expect(stats.acceptedEvents == 2)
        #expect(stats.storedEvents == 2)
        #expect(stats.uploadedEvents == 2)
        #expect(stats.queuedEvents == 0)
        #expect(stats.requests.accepted == 1)
        #expect(rig.machine.isQuiet)
    }

    @Test("Retry-After: no request of that batch or any other inside the window, even across flushes")
    func retryAfterEverywhere() {
        var rig = MachineRig(flushAt: 1000, maxRetries: 0)
        rig.startEmpty()
        #expect(rig.write(1, tickets: [.init(waiterID: 7)]) == [.list(limit: 20)])
        #expect(rig.feed(.listed([b1])) == [.read(b1)])
        #expect(rig.readAndSend(b1) == [.send(b1)])
        // 429 with Retry-After 10 s and no retries left: the flush ends, the batch is kept.
        let answer = rig.at(0, .answered(b1, status: 429, retryAfter: .seconds(10), jitter: 0))
        #expect(answer.contains(.forget(b1)))
        #expect(answer.contains { if case .resume(7, let r) = $0 { r.outcome == .keptForRetry } else { false } })
        // A new flush 1 s later waits for the window: no listing, no request.
        #expect(rig.at(1000, .intakeHasWork) == [.takeDrain])
        var drain = PipelineDrain()
        drain.tickets = [.init(waiterID: nil)]
        #expect(rig.feed(.drained(drain)) == [])
        #expect(rig.machine.nextDeadline == MachineRig.Instant(offset: .seconds(10)))
        #expect(rig.at(9999, .timerFired) == [])
        #expect(rig.at(10_000, .timerFired) == [.list(limit: 20)])
    }

    @Test("Backoff grows across flushes during an outage, up to the cap, and resets at the first success")
    func backoffAcrossPasses() {
        var rig = MachineRig(flushAt: 1000, maxRetries: 0)
        rig.startEmpty()
        #expect(rig.write(1) == [])
        var gates: [Int64] = []
        var time: Int64 = 0
        for _ in 0..<8 {
            var drain = PipelineDrain()
            drain.tickets = [.init(waiterID: nil)]
            _ = rig.at(time, .intakeHasWork)
            var actions = rig.feed(.drained(drain))
            if let gate = rig.machine.gateUntil {
                // Still inside the backoff of the previous failure: the flush waits for it.
                #expect(actions.isEmpty)
                time =
                    Int64(gate.offset.components.seconds) * 1000 + gate.offset.components.attoseconds
                    / 1_000_000_000_000_000
                actions = rig.at(time, .timerFired)
            }
            #expect(actions == [.list(limit: 20)])
            #expect(rig.feed(.listed([b1])) == [.read(b1)])
            #expect(rig.readAndSend(b1) == [.send(b1)])
            _ = rig.feed(.answered(b1, status: 503, retryAfter: nil, jitter: 0.999_999))
            let gate = rig.machine.gateUntil.map { rig.now.duration(to: $0) } ?? .zero
            gates.append(gate.components.seconds * 1000 + gate.components.attoseconds / 1_000_000_000_000_000)
        }
        // Full-jitter ceilings 1, 2, 4 … 60 s (jitter just below 1): the streak carries across flushes.
        #expect(gates == [999, 1999, 3999, 7999, 15_999, 31_999, 59_999, 59_999])
        #expect(rig.machine.failureStreak == 8)
        // A success resets the streak.
        time += 60_000
        _ = rig.at(time, .timerFired)
        var drain = PipelineDrain()
        drain.tickets = [.init(waiterID: nil)]
        _ = rig.feed(.intakeHasWork)
        #expect(rig.feed(.drained(drain)) == [.list(limit: 20)])
        _ = rig.feed(.listed([b1]))
        _ = rig.readAndSend(b1)
        _ = rig.feed(.answered(b1, status: 200, retryAfter: nil, jitter: 0.5))
        #expect(rig.machine.failureStreak == 0)
        #expect(rig.machine.gateUntil == nil)
    }

    @Test("A batch evicted while it is sent counts as delivered when the server takes it, as evicted when not")
    func evictionInFlight() {
        for status in [200, 500] {
            var rig = MachineRig(flushAt: 1, maxRetries: 3)
            rig.startEmpty()
            _ = rig.write(1)
            _ = rig.feed(.listed([b1]))
            #expect(rig.readAndSend(b1, events: 5) == [.send(b1)])
            // A write evicts b1 (5 events) and b0 (3 events, not being uploaded) while b1's request is out.
            var report = BinobanStorageWriteReport(storedEvents: 1, evictedBatches: 2, evictedEvents: 8)
            report.evictedBatchEvents = [b1: 5, BinobanBatchID(sequence: 0): 3]
            var drain = PipelineDrain()
            drain.eventCount = 1
            _ = rig.feed(.intakeHasWork)
            _ = rig.feed(.drained(drain))
            let written = rig.feed(.written(report, storedBytes: 10, moreInDrain: false))
            #expect(reports(written).contains { $0 == (.storageEviction, 3) })
            #expect(rig.machine.statistics.dropped.storageEviction == 3)
            let answer = rig.feed(.answered(b1, status: status, retryAfter: nil, jitter: 0))
            if status == 200 {
                #expect(answer.contains(.forget(b1)))
                #expect(!answer.contains(.remove(b1)))
                #expect(rig.machine.statistics.uploadedEvents == 5)
                #expect(rig.machine.statistics.dropped.storageEviction == 3)
            } else {
                #expect(reports(answer).contains { $0 == (.storageEviction, 5) })
                #expect(rig.machine.statistics.dropped.storageEviction == 8)
                #expect(rig.machine.statistics.uploadedEvents == 0)
            }
            #expect(rig.machine.work.isEmpty)
        }
    }

    @Test("A batch evicted before it was read is counted once, and the pass goes on with the next one")
    func evictionOfQueuedBatch() {
        var rig = MachineRig(flushAt: 1)
        rig.startEmpty()
        _ = rig.write(1)
        #expect(rig.feed(.listed([b1, b2])) == [.read(b1)])
        var report = BinobanStorageWriteReport(storedEvents: 1, evictedBatches: 1, evictedEvents: 4)
        report.evictedBatchEvents = [b2: 4]
        var drain = PipelineDrain()
        drain.eventCount = 1
        _ = rig.feed(.intakeHasWork)
        _ = rig.feed(.drained(drain))
        let written = rig.feed(.written(report, storedBytes: 10, moreInDrain: false))
        #expect(reports(written).map(\.0) == [.storageEviction])
        #expect(rig.machine.work.map(\.id) == [b1])
        // A batch that vanished for another reason is skipped, not a storage failure.
        #expect(reports(rig.feed(.vanished(b1))).isEmpty)
        #expect(rig.machine.statistics.dropped.storageEviction == 4)
    }

    @Test("Backpressure wait: a refused suffix is held until an upload frees room, then written again")
    func waitHoldsRefused() {
        var rig = MachineRig(flushAt: 1000, backpressure: .wait)
        rig.startEmpty()
        _ = rig.feed(.intakeHasWork)
        var drain = PipelineDrain()
        drain.eventCount = 10
        #expect(rig.feed(.drained(drain)) == [.write(.refuse)])
        let held = rig.feed(.written(.init(storedEvents: 4, refusedEvents: 6), storedBytes: 40, moreInDrain: true))
        #expect(held == [.list(limit: 20)])
        // The intake's events wait while the write stage holds events; only its settings are taken.
        #expect(rig.feed(.intakeHasWork) == [.takeSettings])
        #expect(rig.feed(.settingsTaken(nil, pausedSinceLastDrain: false)) == [])
        #expect(rig.feed(.listed([b1])) == [.read(b1)])
        _ = rig.readAndSend(b1, events: 4)
        #expect(rig.feed(.answered(b1, status: 200, retryAfter: nil, jitter: 0)) == [.remove(b1)])
        #expect(rig.feed(.removed(b1)) == [.write(.refuse)])
        #expect(rig.machine.statistics.dropped.total == 0)
    }

    @Test(
        "A write held for room while a Retry-After keeps uploads waiting is quiet and counted held until stored")
    func holdBehindRetryAfterIsQuietAndCounted() throws {
        var rig = MachineRig(flushAt: 1000, backpressure: .wait)
        rig.startEmpty()
        _ = rig.feed(.intakeHasWork)
        var drain = PipelineDrain()
        (drain.eventCount, drain.acceptedEvents) = (10, 10)
        #expect(rig.feed(.drained(drain)) == [.write(.refuse)])
        #expect(rig.machine.statistics.heldEvents == 10)
        #expect(
            rig.feed(.written(.init(storedEvents: 4, refusedEvents: 6), storedBytes: 40, moreInDrain: false))
                == [.list(limit: 20)])
        // The refused six are held (neither queued nor dropped); the pass that lists for room is out.
        #expect(rig.machine.statistics.heldEvents == 6)
        #expect(!rig.machine.isQuiet)
        #expect(rig.feed(.listed([b1])) == [.read(b1)])
        #expect(rig.readAndSend(b1, events: 4) == [.send(b1)])
        _ = rig.at(0, .answered(b1, status: 429, retryAfter: .seconds(5), jitter: 0))
        // Only time can free room now: the machine is quiet, its deadline is the gate's, the intake's events wait.
        let statistics = rig.machine.statistics
        #expect(rig.machine.isQuiet)
        #expect(rig.machine.leavesIntakeEventsWaiting)
        #expect(statistics.heldEvents == 6)
        #expect(
            statistics.acceptedEvents
                == statistics.heldEvents + statistics.queuedEvents + statistics.uploadedEvents
                + statistics.dropped.total)
        let gate = try #require(rig.machine.nextDeadline)
        #expect(gate == ManualClock.Instant(offset: .seconds(5)))
        #expect(rig.at(5_000, .timerFired) == [.send(b1)])
        #expect(rig.feed(.answered(b1, status: 200, retryAfter: nil, jitter: 0)) == [.remove(b1)])
        #expect(rig.feed(.removed(b1)) == [.write(.refuse)])
        _ = rig.feed(.written(.init(storedEvents: 6), storedBytes: 60, moreInDrain: false))
        #expect(rig.machine.statistics.heldEvents == 0)
        #expect(rig.machine.statistics.queuedEvents == 6)
        #expect(!rig.machine.leavesIntakeEventsWaiting)
    }

    @Test("Backpressure wait: a pause behind a held write is seen at once, and a resume uploads again")
    func waitHoldSeesPause() {
        var rig = MachineRig(flushAt: 1000, backpressure: .wait)
        rig.startEmpty()
        _ = rig.feed(.intakeHasWork)
        var drain = PipelineDrain()
        (drain.eventCount, drain.tickets) = (10, [.init(waiterID: 3)])
        #expect(rig.feed(.drained(drain)) == [.write(.refuse)])
        #expect(
            rig.feed(.written(.init(storedEvents: 4, refusedEvents: 6), storedBytes: 40, moreInDrain: false))
                == [.list(limit: 20)])
        // The host pauses while the write is held: the flush behind the hold returns `paused`, no upload starts.
        #expect(rig.feed(.intakeHasWork) == [.takeSettings])
        let paused = EventIntake.Settings(enabled: false, flushAt: 1000, flushInterval: .seconds(3600))
        let actions = rig.feed(.settingsTaken(paused, pausedSinceLastDrain: true))
        #expect(actions.contains { if case .resume(3, let result) = $0 { result.outcome == .paused } else { false } })
        #expect(rig.feed(.listed([b1])) == [])
        // The resume, also behind the hold, asks for uploads again.
        #expect(rig.feed(.intakeHasWork) == [.takeSettings])
        let resumed = EventIntake.Settings(enabled: true, flushAt: 1000, flushInterval: .seconds(3600))
        #expect(rig.feed(.settingsTaken(resumed, pausedSinceLastDrain: false)).contains(.list(limit: 20)))
    }

    @Test("A settings change signals the driver even while queued events have signalled already")
    func settingsSignalWhileEventsWait() {
        let intake = EventIntake(
            identity: IdentityState(anonymousId: "a", userId: nil, traits: [:], deviceToken: nil, deviceId: "d"),
            persistIdentity: false, capacity: 10, overflow: .dropNewest,
            settings: .init(enabled: true, flushAt: 20, flushInterval: .seconds(30)))
        let signals = LockedValue(0)
        intake.setOnWork { signals.withLock { $0 += 1 } }
        intake.accept { _ in
            PendingEvent(
                kind: .track, name: "e", payload: [:], messageId: MessageID(high: 1, low: 1), timestampMillis: 0,
                anonymousId: "a", userId: nil, deviceToken: nil)
        }
        #expect(signals.withLock { $0 } == 1)
        intake.updateSettings { $0.enabled = false }
        #expect(signals.withLock { $0 } == 2)
        #expect(
            intake.takeSettings()
                == EventIntake.SettingsChange(
                    settings: .init(enabled: false, flushAt: 20, flushInterval: .seconds(30)),
                    pausedSinceLastDrain: true))
        #expect(intake.takeSettings() == nil)
        intake.updateSettings { $0.enabled = true }
        #expect(signals.withLock { $0 } == 3)
        // The events stayed queued for the drain.
        #expect(intake.take().summary.eventCount == 1)
    }

    @Test(
        "A write refused while a listing is out is written again when that listing's close evicts, and the awaited flush behind it returns"
    )
    func holdReleasedByTheListingsEviction() {
        // Found by the seeded model (tiny caps: a batch larger than the byte cap evicts itself when it is closed).
        var rig = MachineRig(flushAt: 1000)
        rig.startEmpty()
        #expect(rig.write(4, tickets: [.init(waiterID: nil)]) == [.list(limit: 20)])
        // Before the listing answers, one more event and an awaited flush: the full storage refuses the event.
        #expect(rig.feed(.intakeHasWork) == [.takeDrain])
        var drain = PipelineDrain()
        (drain.eventCount, drain.acceptedEvents, drain.tickets) = (1, 1, [.init(waiterID: 7)])
        #expect(rig.feed(.drained(drain)) == [.write(.refuse)])
        #expect(rig.feed(.written(.init(refusedEvents: 1), storedBytes: 0, moreInDrain: false)) == [])
        // Closing the open batch for the listing evicts it: the storage is empty and nothing is listed.
        var closed = BinobanStorageWriteReport(evictedBatches: 1, evictedEvents: 4)
        closed.evictedBatchEvents = [b1: 4]
        let listed = rig.feed(.listed([], closed: closed))
        #expect(reports(listed).map(\.0) == [.storageEviction])
        // The room freed by the eviction ends the hold at once, and a pass lists after the refusal.
        #expect(listed.contains(.write(.refuse)))
        #expect(listed.contains(.list(limit: 20)))
        let written = rig.feed(.written(.init(storedEvents: 1), storedBytes: 10, moreInDrain: false))
        #expect(!written.contains { if case .resume = $0 { true } else { false } })
        #expect(rig.feed(.listed([b2])) == [.read(b2)])
        #expect(rig.readAndSend(b2, events: 1) == [.send(b2)])
        #expect(rig.feed(.answered(b2, status: 200, retryAfter: nil, jitter: 0)) == [.remove(b2)])
        // The awaited flush's own pass lists once more, finds nothing, and returns.
        #expect(rig.feed(.removed(b2)) == [.list(limit: 20)])
        let last = rig.feed(.listed([]))
        let result = last.compactMap { if case .resume(7, let result) = $0 { result } else { nil } }.first
        #expect(result?.outcome == .completed)
        #expect(result?.uploadedEvents == 1)
        let statistics = rig.machine.statistics
        #expect(statistics.acceptedEvents == 5)
        #expect(statistics.uploadedEvents == 1)
        #expect(statistics.dropped.storageEviction == 4)
        #expect(statistics.queuedEvents == 0)
        #expect(rig.machine.isQuiet)
    }

    @Test("Backpressure dropNewest: the refused events are dropped, counted and reported with their number")
    func dropNewestCounts() {
        var rig = MachineRig(flushAt: 1000, backpressure: .dropNewest)
        rig.startEmpty()
        _ = rig.feed(.intakeHasWork)
        var drain = PipelineDrain()
        drain.eventCount = 10
        #expect(rig.feed(.drained(drain)) == [.write(.refuse)])
        let actions = rig.feed(.written(.init(storedEvents: 4, refusedEvents: 6), storedBytes: 40, moreInDrain: false))
        #expect(actions.contains(.discardRefused))
        #expect(reports(actions).contains { $0 == (.storageFull, 6) })
        #expect(rig.machine.statistics.dropped.storageFull == 6)
    }

    @Test("dropOldest waits for uploads while they work, and evicts once they fail")
    func dropOldestHybrid() {
        var rig = MachineRig(flushAt: 1000, maxRetries: 3)
        rig.startEmpty()
        _ = rig.feed(.intakeHasWork)
        var drain = PipelineDrain()
        drain.eventCount = 10
        #expect(rig.feed(.drained(drain)) == [.write(.refuse)])
        #expect(
            rig.feed(.written(.init(storedEvents: 4, refusedEvents: 6), storedBytes: 40, moreInDrain: true))
                == [.list(limit: 20)])
        _ = rig.feed(.listed([b1]))
        _ = rig.readAndSend(b1, events: 4)
        // The upload fails: the held events are written now, evicting the oldest batches.
        #expect(rig.feed(.answered(b1, status: 503, retryAfter: nil, jitter: 0.5)).contains(.write(.evictOldest)))
    }

    @Test("An awaited flush's result says how many events were dropped since the previous result")
    func flushResultCountsDrops() {
        var rig = MachineRig(flushAt: 1000, hasTransport: true)
        rig.startEmpty()
        _ = rig.feed(.intakeHasWork)
        var drain = PipelineDrain()
        drain.overflowDrops = 7
        drain.pausedDrops = 2
        drain.tickets = [.init(waiterID: 1)]
        let actions = rig.feed(.drained(drain))
        #expect(reports(actions).contains { $0 == (.writeStageOverflow, 7) })
        #expect(reports(actions).contains { $0 == (.pausedDrop, 2) })
        #expect(actions == actions.filter { if case .report = $0 { true } else { $0 == .list(limit: 20) } })
        let result = rig.feed(.listed([]))
        #expect(result == [.resume(1, BinobanFlushResult(outcome: .completed, droppedEvents: 9))])
    }

    @Test("Two uploads run at once when allowed; a Retry-After on one holds the other's retry too")
    func concurrentUploads() {
        var rig = MachineRig(flushAt: 1, concurrent: 2)
        rig.startEmpty()
        _ = rig.write(1)
        #expect(rig.feed(.listed([b1, b2])) == [.read(b1), .read(b2)])
        #expect(rig.readAndSend(b1) == [.send(b1)])
        #expect(rig.readAndSend(b2) == [.send(b2)])
        _ = rig.at(0, .answered(b1, status: 503, retryAfter: .seconds(5), jitter: 0))
        #expect(rig.at(10, .answered(b2, status: 500, retryAfter: nil, jitter: 0)) == [])
        #expect(rig.at(4999, .timerFired) == [])
        #expect(rig.at(5000, .timerFired) == [.send(b1), .send(b2)])
    }

    @Test("A request still out does not hold the pass: once the rest is sent, the next batches are listed")
    func listsAheadOfASlowRequest() {
        let ids = (1...20).map { BinobanBatchID(sequence: UInt64($0)) }
        var rig = MachineRig(flushAt: 1, concurrent: 2)
        rig.startEmpty()
        _ = rig.write(1)
        #expect(rig.feed(.listed(ids)) == [.read(ids[0]), .read(ids[1])])
        #expect(rig.readAndSend(ids[0]) == [.send(ids[0])])  // this one will not be answered
        #expect(rig.readAndSend(ids[1]) == [.send(ids[1])])
        for index in 1..<19 {
            #expect(rig.feed(.answered(ids[index], status: 200, retryAfter: nil, jitter: 0)) == [.remove(ids[index])])
            #expect(rig.feed(.removed(ids[index])) == [.read(ids[index + 1])])
            #expect(rig.readAndSend(ids[index + 1]) == [.send(ids[index + 1])])
        }
        // Only the slow request is left, and the listing was full: the next batches are listed at once.
        #expect(
            rig.feed(.answered(ids[19], status: 200, retryAfter: nil, jitter: 0)) == [
                .remove(ids[19]), .list(limit: 20),
            ])
        // The slow batch is listed again but not sent twice; the new one is read once a slot is free.
        let more = BinobanBatchID(sequence: 21)
        #expect(rig.feed(.listed([ids[0], more])) == [])
        #expect(rig.feed(.removed(ids[19])) == [.read(more)])
        #expect(rig.readAndSend(more) == [.send(more)])
    }

    @Test("A success reopens a backoff at once, but never a Retry-After window")
    func successReopensBackoffOnly() {
        let b3 = BinobanBatchID(sequence: 3)
        for retryAfter in [nil, Duration.seconds(5)] {
            var rig = MachineRig(flushAt: 1, concurrent: 3)
            rig.startEmpty()
            _ = rig.write(1)
            #expect(rig.feed(.listed([b1, b2, b3])) == [.read(b1), .read(b2), .read(b3)])
            for id in [b1, b2, b3] { #expect(rig.readAndSend(id) == [.send(id)]) }
            // b1 fails with a long jitter: b2 and b3 are still in flight.
            _ = rig.at(0, .answered(b1, status: 500, retryAfter: retryAfter, jitter: 0.999))
            #expect(rig.machine.gateUntil != nil)
            // b2 succeeds: the ingest works, so b1 goes again at once, unless the server asked to wait.
            let actions = rig.at(100, .answered(b2, status: 200, retryAfter: nil, jitter: 0))
            if retryAfter == nil {
                // The request comes before the delete: a shutdown posted while the delete runs cannot stop it
                // (Decision 0235).
                #expect(actions == [.send(b1), .remove(b2)])
                #expect(rig.machine.gateUntil == nil)
            } else {
                #expect(actions == [.remove(b2)])
                #expect(rig.machine.gateUntil == MachineRig.Instant(offset: .seconds(5)))
                #expect(rig.at(4999, .timerFired) == [])
                #expect(rig.at(5000, .timerFired) == [.send(b1)])
            }
        }
    }

    @Test("A shutdown that arrives while the storage is still opening takes effect once it is open")
    func shutdownBeforeTheStorageOpened() {
        var rig = MachineRig(flushAt: 1000)
        #expect(rig.at(0, .stop(deadline: MachineRig.Instant(offset: .seconds(30)))) == [])
        #expect(rig.machine.phase == .created)
        // The start-up pass lists what a previous run left, as always; the intake is closed by the shutdown.
        #expect(rig.at(5, .started) == [.list(limit: 20)])
        _ = rig.feed(.intakeHasWork)
        var drain = PipelineDrain()
        drain.closed = true
        _ = rig.feed(.drained(drain))
        let finished = rig.at(10, .listed([]))
        #expect(finished.last == .finish)
        #expect(rig.machine.phase == .stopped)
        #expect(rig.machine.nextDeadline == nil)
    }

    @Test("Shutdown writes what the intake held, then stops at the deadline: uploads cancelled, waiters told")
    func shutdownDeadline() {
        var rig = MachineRig(flushAt: 1000)
        rig.startEmpty()
        #expect(rig.at(0, .stop(deadline: MachineRig.Instant(offset: .seconds(2)))) == [])
        _ = rig.feed(.intakeHasWork)
        var drain = PipelineDrain()
        drain.eventCount = 1
        drain.tickets = [.init(waiterID: 3)]
        drain.closed = true
        _ = rig.feed(.drained(drain))
        #expect(rig.feed(.written(.init(storedEvents: 1), storedBytes: 10, moreInDrain: false)) == [.list(limit: 20)])
        _ = rig.feed(.listed([b1]))
        _ = rig.readAndSend(b1)
        let stopped = rig.at(2000, .timerFired)
        #expect(stopped.first == .cancelUploads)
        #expect(stopped.contains { if case .resume(3, let r) = $0 { r.outcome == .interrupted } else { false } })
        #expect(stopped.last == .finish)
        #expect(rig.machine.phase == .stopped)
    }

    @Test("Pausing resolves awaiting flushes as paused; resuming lists again and re-arms the interval")
    func pauseAndResume() {
        var rig = MachineRig(flushAt: 1000)
        rig.startEmpty()
        _ = rig.write(1, tickets: [.init(waiterID: 4)])
        var drain = PipelineDrain()
        drain.settings = .init(enabled: false, flushAt: 1000, flushInterval: .seconds(3600))
        _ = rig.feed(.intakeHasWork)
        let paused = rig.feed(.drained(drain))
        #expect(paused.contains { if case .resume(4, let r) = $0 { r.outcome == .paused } else { false } })
        #expect(rig.machine.intervalDeadline == nil)
        _ = rig.feed(.listed([b1]))  // the listing asked before the pause comes back: nothing is sent
        drain.settings?.enabled = true
        _ = rig.feed(.intakeHasWork)
        #expect(rig.at(100, .drained(drain)).contains(.read(b1)))
        #expect(rig.machine.intervalDeadline == MachineRig.Instant(offset: .milliseconds(3_600_100)))
    }

    @Test("Requests failing together count as one failure: concurrent 503s grow the backoff once")
    func concurrentFailuresGrowBackoffOnce() {
        var rig = MachineRig(flushAt: 1, concurrent: 2)
        rig.startEmpty()
        _ = rig.write(1)
        _ = rig.feed(.listed([b1, b2]))
        _ = rig.readAndSend(b1)
        _ = rig.readAndSend(b2)
        _ = rig.feed(.answered(b1, status: 503, retryAfter: nil, jitter: 0.5))
        _ = rig.feed(.answered(b2, status: 503, retryAfter: nil, jitter: 0.5))
        #expect(rig.machine.failureStreak == 1)
        #expect(rig.machine.gateUntil == MachineRig.Instant(offset: .milliseconds(500)))
    }

    @Test("A backlog of flushAt events or more keeps uploading after a full pass, without another trigger")
    func backlogKeepsUploading() {
        var rig = MachineRig(flushAt: 2)
        rig.startEmpty()
        // Four events stored (two batches' worth); the count trigger lists, the pass delivers one batch of two.
        #expect(rig.write(4) == [.list(limit: 20)])
        _ = rig.feed(.listed([b1]))
        _ = rig.readAndSend(b1, events: 2)
        _ = rig.feed(.answered(b1, status: 200, retryAfter: nil, jitter: 0))
        // Two events are still queued (>= flushAt): the next pass starts as soon as this one ends.
        #expect(rig.feed(.removed(b1)) == [.list(limit: 20)])
        _ = rig.feed(.listed([b2]))
        _ = rig.readAndSend(b2, events: 2)
        _ = rig.feed(.answered(b2, status: 200, retryAfter: nil, jitter: 0))
        #expect(rig.feed(.removed(b2)) == [])
        #expect(rig.machine.statistics.queuedEvents == 0)
    }

    @Test("A batch listed, uploaded and removed before the report of the append that filled it: the books close")
    func lateAppendReportClosesTheBooks() {
        var rig = MachineRig(flushAt: 100)
        rig.startEmpty()
        #expect(rig.feed(.intakeHasWork) == [.takeDrain])
        var drain = PipelineDrain()
        drain.eventCount = 5
        drain.acceptedEvents = 5
        #expect(rig.feed(.drained(drain)) == [.write(.refuse)])
        // The append is in flight when the interval pass lists: a driver that ran storage calls side by side
        // could list, upload and remove the batch the append filled before the append's report came back.
        #expect(rig.at(3_600_000, .timerFired) == [.list(limit: 20)])
        #expect(rig.feed(.listed([b2])) == [.read(b2)])
        #expect(rig.readAndSend(b2, events: 5) == [.send(b2)])
        #expect(rig.feed(.answered(b2, status: 200, retryAfter: nil, jitter: 0)) == [.remove(b2)])
        _ = rig.feed(.removed(b2))
        var report = BinobanStorageWriteReport(storedEvents: 5)
        report.recordPlacement(of: 5, in: b2)
        _ = rig.feed(.written(report, storedBytes: 50, moreInDrain: false, placedBytes: [50]))
        let statistics = rig.machine.statistics
        #expect(statistics.storedEvents == 5)
        #expect(statistics.uploadedEvents == 5)
        #expect(statistics.queuedEvents == 0)
        #expect(statistics.queuedBytes == 0)
        #expect(rig.machine.oldestQueuedAt == nil)
    }

    @Test("Batches a previous run left take nothing from this run's queued events when they leave, uploaded or evicted")
    func previousRunBatchesAreNotThisRunsQueue() {
        var rig = MachineRig(flushAt: 100)
        // The startup pass finds a batch of 7 events a previous run left, and sends it.
        #expect(rig.feed(.started) == [.list(limit: 20)])
        #expect(rig.feed(.listed([b1])) == [.read(b1)])
        #expect(rig.readAndSend(b1, events: 7) == [.send(b1)])
        // Meanwhile this run stores 3 events in its own batch.
        var first = BinobanStorageWriteReport(storedEvents: 3)
        first.recordPlacement(of: 3, in: b2)
        _ = rig.write(3, report: first)
        #expect(rig.machine.statistics.queuedEvents == 3)
        _ = rig.feed(.answered(b1, status: 200, retryAfter: nil, jitter: 0))
        _ = rig.feed(.removed(b1))
        #expect(rig.machine.statistics.uploadedEvents == 7)
        #expect(rig.machine.statistics.queuedEvents == 3)
        #expect(rig.machine.statistics.queuedBytes == 30)
        // A later append evicts this run's batch (3 events) and another old one (4 events): 2 stay queued.
        let b3 = BinobanBatchID(sequence: 3)
        let old = BinobanBatchID(sequence: 0)
        var second = BinobanStorageWriteReport(
            storedEvents: 2, evictedBatches: 2, evictedEvents: 7, evictedBatchEvents: [old: 4, b2: 3])
        second.recordPlacement(of: 2, in: b3)
        _ = rig.write(2, report: second)
        let statistics = rig.machine.statistics
        #expect(statistics.dropped.storageEviction == 7)
        #expect(statistics.queuedEvents == 2)
        #expect(statistics.queuedBytes == 20)
    }
}
