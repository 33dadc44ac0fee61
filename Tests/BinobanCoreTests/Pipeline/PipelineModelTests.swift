import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// What the modelled transport answers.
private enum AnswerMode: CaseIterable {
    /// 429 with `Retry-After: 0`, then 200, in turn.
    case alternating429And200
    /// A seeded mix: 200, 429 (`Retry-After` 0 or 1 s), 500, 400 and no answer.
    case mixed
}

/// One seeded run of a ``PipelineMachine`` against a model of its driver: an intake, a write stage handing
/// chunks of three events to a real ``InMemoryEventStorage`` with tiny caps, and a transport answering from
/// `AnswerMode`. Every I/O the machine asks for is held as pending and completed in a seeded order, so results
/// arrive interleaved as they can with a real driver. After every step the counts are checked against the
/// storage, and every awaited flush must be resolved exactly once.
private struct ModelRun {
    typealias Instant = ManualClock.Instant

    enum Pending {
        case write([Data], BinobanStorageFullBehaviour)
        case list(Int)
        case read(BinobanBatchID)
        case send(BinobanBatchID)
        case remove(BinobanBatchID)
        case save
    }

    let seed: UInt64
    let random: SeededRandomSource
    let storage: InMemoryEventStorage
    let limits: BinobanStorageLimits
    let mode: AnswerMode
    var machine: PipelineMachine<Instant>
    var now = Instant(offset: .zero)
    var answersSent = 0

    // The intake.
    var enabled = true
    var flushAt: Int
    var intakeEvents: [Data] = []
    var intakeAccepted = 0
    var intakePausedDrops = 0
    var intakeTickets: [EventIntake.FlushTicket] = []
    var settingsChanged = false
    var pausedSinceDrain = false
    var closed = false

    // The write stage (the driver's buffer): the drain's events, how many were chunked, the chunk out or refused.
    static let chunkSize = 3
    var drainEvents: [Data] = []
    var chunked = 0
    var chunk: [Data] = []

    // I/O in flight, batches read, callers awaiting.
    var pending: [Pending] = []
    var held: [BinobanBatchID: BinobanStoredBatch] = [:]
    var nextWaiter: UInt64 = 1
    var waiting: Set<UInt64> = []
    var finished = false
    var steps = 0
    /// The last inputs and actions, shown when a check fails.
    var trace: [String] = []
    /// The states of the machine's parts seen before and after each input (part by part, not their combinations).
    var seen: Set<String> = []

    init(seed: UInt64) {
        self.seed = seed
        random = SeededRandomSource(seed: seed &+ 0x9E37_79B9)
        mode = AnswerMode.allCases[Int(random.next() % 2)]
        limits = BinobanStorageLimits(
            maxEventBytes: 1_500, maxBatchBytes: 2_000 + Int(random.next() % 3_001), envelopeOverheadBytes: 100,
            maxFinishedBatches: 1 + Int(random.next() % 2), maxTotalBytes: 2_000 + Int(random.next() % 3_001))
        storage = InMemoryEventStorage(limits: limits)
        let backpressures: [BinobanBackpressure] = [.dropOldest, .dropOldest, .dropNewest, .wait]
        let rules = PipelineRules(
            maxFilesPerFlush: 1 + Int(random.next() % 3), maxRetries: Int(random.next() % 4),
            backoff: BackoffSchedule(baseMillis: 1000, factor: 2, maxMillis: 8_000),
            retryAfterLimit: .seconds(600), maxConcurrentUploads: 1 + Int(random.next() % 3),
            backpressure: backpressures[Int(random.next() % 4)], hasTransport: true)
        flushAt = 1 + Int(random.next() % 4)
        machine = PipelineMachine(
            rules: rules, settings: .init(enabled: true, flushAt: flushAt, flushInterval: .seconds(3600)))
    }

    var label: String { "seed \(seed), \(mode), \(machine.rules), \(limits), flushAt \(flushAt)" }

    func roll(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }

    /// Events the write stage holds: drained, not yet stored or dropped.
    var writeStageEvents: Int { chunk.count + drainEvents.count - chunked }

    // MARK: The driver's part

    mutating func feed(_ input: PipelineInput<Instant>) {
        guard !finished else { return }
        var inputs = [input]
        while !inputs.isEmpty {
            let next = inputs.removeFirst()
            noteStates()
            let actions = machine.handle(next, at: now)
            noteStates()
            checkRequestsBeforeStorageCalls(actions, after: next)
            if case .intakeHasWork = next, actions.isEmpty {
            } else {
                trace.append("\(now.offset) \(next) -> \(actions)")
                if trace.count > 60 { trace.removeFirst(trace.count - 60) }
            }
            for action in actions {
                if let next = perform(action) { inputs.append(next) }
            }
        }
    }

    /// Records which case each part of the machine is in.
    mutating func noteStates() {
        let stage =
            switch machine.writeStage {
            case .idle: "idle"
            case .taking: "taking"
            case .draining: "draining"
            case .writing: "writing"
            case .holding: "holding"
            }
        let identity =
            switch machine.identity {
            case .idle: "idle"
            case .due: "due"
            case .saving(nil): "saving"
            case .saving(.some): "saving, next due"
            }
        let backoff =
            switch machine.gate.backoff {
            case .healthy: "healthy"
            case .backingOff: "backingOff"
            case .failing: "failing"
            }
        let phase =
            switch machine.phase {
            case .created: "created"
            case .running: "running"
            case .stopping(_, false): "stopping"
            case .stopping(_, true): "stopping late"
            case .stopped: "stopped"
            }
        let passes =
            switch machine.passes {
            case .none: "none"
            case .running(_, nil): "running"
            case .running(_, .some): "running, follow-up merged"
            }
        seen.formUnion([
            "passes \(passes)",
            "write stage \(stage)", "identity \(identity)", "backoff \(backoff)", "phase \(phase)",
            "server asked \(machine.gate.serverAsked != nil)",
        ])
    }

    mutating func perform(_ action: PipelineAction) -> PipelineInput<Instant>? {
        switch action {
        case .takeDrain:
            var drain = PipelineDrain()
            drain.eventCount = intakeEvents.count
            drain.acceptedEvents = intakeAccepted
            drain.pausedDrops = intakePausedDrops
            drain.tickets = intakeTickets
            drain.closed = closed
            drain.pausedSinceLastDrain = pausedSinceDrain
            if settingsChanged {
                drain.settings = .init(enabled: enabled, flushAt: flushAt, flushInterval: .seconds(3600))
            }
            // Now and then the identity changed (an `identify`), so saves overlap with newer snapshots.
            if roll(3) == 0 {
                drain.identity = IdentityState(
                    anonymousId: "anonymous", userId: "user \(roll(1000))", traits: [:], deviceToken: nil,
                    deviceId: "device")
            }
            drainEvents = intakeEvents
            chunked = 0
            (intakeEvents, intakeAccepted, intakePausedDrops, intakeTickets) = ([], 0, 0, [])
            (settingsChanged, pausedSinceDrain) = (false, false)
            return .drained(drain)
        case .takeSettings:
            let taken: EventIntake.Settings? =
                settingsChanged ? .init(enabled: enabled, flushAt: flushAt, flushInterval: .seconds(3600)) : nil
            let paused = pausedSinceDrain
            (settingsChanged, pausedSinceDrain) = (false, false)
            return .settingsTaken(taken, pausedSinceLastDrain: paused)
        case .write(let whenFull):
            if chunk.isEmpty {
                let end = min(chunked + Self.chunkSize, drainEvents.count)
                chunk = Array(drainEvents[chunked..<end])
                chunked = end
            }
            if chunk.isEmpty { Issue.record("write asked with nothing to write (\(label))") }
            pending.append(.write(chunk, whenFull))
        case .discardRefused:
            chunk = []
        case .list(let limit):
            pending.append(.list(limit))
        case .read(let id):
            pending.append(.read(id))
        case .send(let id):
            if held[id] == nil { Issue.record("send of \(id), which was not read (\(label))") }
            pending.append(.send(id))
        case .forget(let id):
            held[id] = nil
        case .remove(let id):
            held[id] = nil
            pending.append(.remove(id))
        case .saveIdentity:
            pending.append(.save)
        case .resume(let id, _):
            if waiting.remove(id) == nil { Issue.record("waiter \(id) resumed twice or never registered (\(label))") }
        case .report(_, _, let count, _, _, _):
            if count < 0 { Issue.record("a report with \(count) events (\(label))") }
        case .deliverSummaries, .cancelUploads, .deliver, .nameEvents, .purge, .resumePurges, .reportNoAnswer:
            break
        case .finish:
            finished = true
        }
        return nil
    }

    /// Completes the pending I/O at `index`: the storage call happens now, and its result goes to the machine.
    mutating func complete(_ index: Int) async throws {
        let call = pending.remove(at: index)
        switch call {
        case .write(let events, let whenFull):
            let report = try await storage.append(events, whenFull: whenFull)
            let taken = chunk.count - report.refusedEvents
            let bytes = chunk.prefix(taken).reduce(0) { $0 + $1.count }
            chunk.removeFirst(taken)
            // A refused suffix left in the chunk is not "more in the drain" (PipelineInput.written).
            feed(.written(report, storedBytes: bytes, moreInDrain: chunked < drainEvents.count))
        case .list(let limit):
            let closedReport = try await storage.closeOpenBatch()
            feed(.listed(try await storage.finishedBatches(limit: limit), closed: closedReport))
        case .read(let id):
            if let batch = try await storage.read(id) {
                held[id] = batch
                feed(.read(id, eventCount: batch.eventCount, bytes: batch.events.count))
            } else {
                feed(.vanished(id))
            }
        case .send(let id):
            feed(answer(for: id))
        case .remove(let id):
            try await storage.remove(id)
            feed(.removed(id))
        case .save:
            feed(.identitySaved(failure: roll(5) == 0 ? "the store is full" : nil))
        }
    }

    mutating func answer(for id: BinobanBatchID) -> PipelineInput<Instant> {
        answersSent += 1
        let jitter = Double(roll(1000)) / 1000
        switch mode {
        case .alternating429And200:
            if answersSent % 2 == 1 { return .answered(id, status: 429, retryAfter: .zero, jitter: jitter) }
            return .answered(id, status: 200, retryAfter: nil, jitter: jitter)
        case .mixed:
            switch roll(10) {
            case 0: return .answered(id, status: 429, retryAfter: .zero, jitter: jitter)
            case 1: return .answered(id, status: 429, retryAfter: .seconds(1), jitter: jitter)
            case 2: return .answered(id, status: 500, retryAfter: nil, jitter: jitter)
            case 3: return .answered(id, status: 400, retryAfter: nil, jitter: jitter)
            case 4: return .noAnswer(id, jitter: jitter, failure: .init(reason: .refused, detail: "curl code 7"))
            default: return .answered(id, status: 200, retryAfter: nil, jitter: jitter)
            }
        }
    }

    // MARK: The host's part

    mutating func track(_ count: Int) {
        guard !closed else { return }
        for _ in 0..<count {
            intakeAccepted += 1
            guard enabled else {
                intakePausedDrops += 1
                continue
            }
            // Mostly events a few hundred bytes long; some near the event limit, a few over it.
            let size =
                switch roll(20) {
                case 0: limits.maxEventBytes + roll(50)
                case 1, 2: limits.maxEventBytes - 1 - roll(100)
                default: 20 + roll(700)
                }
            intakeEvents.append(Data(repeating: UInt8(ascii: "a"), count: size))
        }
        feed(.intakeHasWork)
    }

    mutating func flush(awaited: Bool) {
        guard !closed else { return }
        var waiter: UInt64?
        if awaited {
            waiter = nextWaiter
            waiting.insert(nextWaiter)
            nextWaiter += 1
        }
        intakeTickets.append(.init(waiterID: waiter))
        feed(.intakeHasWork)
    }

    mutating func setEnabled(_ value: Bool) {
        guard !closed, value != enabled else { return }
        if !value { pausedSinceDrain = true }
        enabled = value
        settingsChanged = true
        feed(.intakeHasWork)
    }

    /// Moves the clock to the machine's next deadline and fires the timer; `false` when there is none.
    mutating func fireNextDeadline(includingInterval: Bool) -> Bool {
        guard let deadline = machine.nextDeadline else { return false }
        if !includingInterval, deadline == machine.intervalDeadline { return false }
        if deadline > now { now = deadline }
        feed(.timerFired)
        return true
    }

    /// One seeded step of the host, the clock or an I/O completion.
    mutating func step() async throws {
        steps += 1
        let choice = roll(100)
        switch choice {
        case 0..<45 where !pending.isEmpty:
            try await complete(roll(pending.count))
        case 0..<60: track(1 + roll(6))
        case 60..<66: flush(awaited: false)
        case 66..<78: flush(awaited: true)
        case 78..<81: setEnabled(!enabled)
        case 81..<83:
            flushAt = 1 + roll(4)
            settingsChanged = true
            feed(.intakeHasWork)
        default:
            _ = fireNextDeadline(includingInterval: roll(10) == 0)
        }
    }

    /// Completes every pending I/O (in a seeded order) and fires every deadline but the interval's, until
    /// nothing is left to do or `limit` hops were made.
    mutating func settle(
        includingInterval: Bool = false, limit: Int = 2_000, until done: (Self) -> Bool = { _ in false }
    ) async throws {
        var hops = 0
        while hops < limit, !done(self) {
            hops += 1
            if !pending.isEmpty {
                try await complete(roll(pending.count))
            } else if !fireNextDeadline(includingInterval: includingInterval) {
                return
            }
            try await check()
        }
        if !done(self) { Issue.record("still busy after \(limit) hops (\(label))") }
    }

    // MARK: Invariants

    /// accepted = uploaded + dropped by reason (rejected included) + queued + in the write stage; queued is what
    /// the storage holds, corrected for batches in flight (answered but not yet deleted, or evicted while sent).
    func check() async throws {
        let statistics = machine.statistics
        let accounted =
            statistics.uploadedEvents + statistics.dropped.total + statistics.queuedEvents + statistics.heldEvents
        // The machine's held count is what the driver holds: drained, not yet stored or dropped.
        #expect(
            statistics.heldEvents == writeStageEvents,
            "held \(statistics.heldEvents), write stage \(writeStageEvents), step \(steps) (\(label))")
        #expect(
            statistics.acceptedEvents == accounted,
            "accepted \(statistics.acceptedEvents) != \(accounted): \(statistics), write stage \(writeStageEvents), step \(steps) (\(label))"
        )
        var expectedQueued = await storage.storedEventCount
        for item in machine.work {
            if item.state == .removing, item.evictedEvents == nil { expectedQueued -= item.eventCount }
            if item.state != .removing, let evicted = item.evictedEvents { expectedQueued += evicted }
        }
        #expect(
            statistics.queuedEvents == expectedQueued,
            "queued \(statistics.queuedEvents), storage says \(expectedQueued), step \(steps) (\(label))")
    }

    /// Every awaited flush returned.
    func checkEveryFlushReturned(_ when: String) {
        #expect(
            waiting.isEmpty,
            "awaited flushes \(waiting.sorted()) never returned \(when) (\(label))\n\(trace.joined(separator: "\n"))")
    }

    /// No request is listed after a storage call of the same input: a shutdown posted while the call runs could
    /// not stop it (Decision 0235).
    func checkRequestsBeforeStorageCalls(_ actions: [PipelineAction], after input: PipelineInput<Instant>) {
        guard let firstCall = actions.firstIndex(where: \.waitsForStorage) else { return }
        let late = actions[firstCall...].filter { if case .send = $0 { true } else { false } }
        #expect(late.isEmpty, "\(input) -> \(actions): a send after a storage call (\(label))")
    }

    /// Nothing is left in the write stage.
    func checkWriteStageEmpty(_ when: String) {
        #expect(
            writeStageEvents == 0,
            "\(writeStageEvents) events stuck in the write stage \(when) (\(label))\n\(trace.joined(separator: "\n"))")
    }
}

@Suite("Pipeline machine: seeded model")
struct PipelineModelTests {
    /// 200 seeds of 300 steps: tiny caps (one or two finished batches, 2 000 to 5 000 bytes), a 429 with
    /// `Retry-After: 0` and a 200 in turn or a seeded mix of answers, every backpressure, 1 to 3 requests in
    /// flight, pauses and runtime `flushAt` changes, I/O completing in a seeded order.
    @Test("Counts add up after every step and every awaited flush and shutdown returns", arguments: 0..<4)
    func model(chunk: Int) async throws {
        var seen: Set<String> = []
        defer {
            // Every state of every part of the machine was reached by the runs of this chunk, between two inputs
            // (`draining` and `due` last only within one: the machine writes and saves at once).
            let expected: Set<String> = [
                "write stage idle", "write stage taking", "write stage writing", "write stage holding",
                "identity idle", "identity saving", "identity saving, next due",
                "backoff healthy", "backoff backingOff", "backoff failing", "phase created", "phase running",
                "phase stopping", "phase stopping late", "phase stopped", "server asked true", "server asked false",
                "passes none", "passes running", "passes running, follow-up merged",
            ]
            #expect(expected.subtracting(seen).isEmpty, "never reached: \(expected.subtracting(seen).sorted())")
        }
        for seed in UInt64(chunk * 50)..<UInt64(chunk * 50 + 50) {
            var run = ModelRun(seed: seed)
            run.feed(.started)
            for _ in 0..<300 {
                try await run.step()
                try await run.check()
            }
            // Whatever happened, once the I/O is done and the backoff and Retry-After deadlines passed, every
            // awaited flush returned, without the interval timer's help.
            run.setEnabled(true)
            if run.machine.rules.backpressure == .wait {
                // Known gap: a flush awaited while a `.wait` write is held behind a kept batch stays in the intake
                // until the next interval flush frees room.
                try await run.settle(includingInterval: true) { $0.waiting.isEmpty && $0.pending.isEmpty }
            } else {
                try await run.settle()
            }
            run.checkEveryFlushReturned("after the run")
            // The write stage empties too, at the latest by the interval's flushes (a batch kept after its
            // retries, which holds a `.wait` write, is retried by the next flush).
            try await run.settle(includingInterval: true) { $0.writeStageEvents == 0 && $0.pending.isEmpty }
            run.checkWriteStageEmpty("after the interval's flushes")
            // The shutdown returns by its deadline, after writing every event accepted before it.
            run.flush(awaited: true)
            run.closed = true
            run.feed(.intakeHasWork)
            // A quarter of the runs give the shutdown no time: its deadline passes before the final flush uploads.
            let grace: Duration = run.roll(4) == 0 ? .zero : .seconds(30)
            run.feed(.stop(deadline: run.now.advanced(by: grace)))
            try await run.settle(includingInterval: true)
            #expect(run.finished, "the shutdown did not finish (\(run.label))")
            run.checkEveryFlushReturned("after the shutdown")
            run.checkWriteStageEmpty("after the shutdown")
            try await run.check()
            seen.formUnion(run.seen)
        }
    }
}
