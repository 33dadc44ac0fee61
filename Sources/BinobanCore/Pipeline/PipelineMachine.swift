/// Every rule of the Binoban pipeline as one value-type machine: the write stage and its backpressure, the
/// count, interval and explicit flushes, awaited flushes and their results, pause and resume, upload passes
/// with concurrent requests, retries, backoff that grows across passes, `Retry-After`, eviction accounting,
/// identity persistence and shutdown.
///
/// It reads no clock, does no I/O, starts no task and draws no random number: inputs come stamped with the
/// instant (``handle(_:at:)``), jitter comes inside the answers, and the only timer is ``nextDeadline``, which
/// the driver sleeps until before feeding ``PipelineInput/timerFired``. Every action returned must be performed.
/// `Docs/Architecture.md` draws the inputs and actions; `Docs/Decisions/0207` records the shape, `0225` the small
/// machines it is composed of (``WriteStageMachine``, ``FlushTriggerMachine``, ``PurgeMachine``,
/// ``PipelineLifeMachine``).
struct PipelineMachine<Instant: InstantProtocol>: Sendable where Instant.Duration == Duration {
    typealias Input = PipelineInput<Instant>

    /// Where the pipeline is in its life.
    enum Phase: Sendable, Equatable {
        /// Waiting for the storage to open.
        case created
        case running
        /// Draining for shutdown: everything accepted is written, uploads may run until `deadline`.
        case stopping(deadline: Instant, deadlinePassed: Bool)
        case stopped
    }

    let rules: PipelineRules
    /// The machine's life and the shutdown deadline (``PipelineLifeMachine``); ``phase`` is its public face.
    var lifetime = PipelineLifeMachine<Instant>()
    var settings: EventIntake.Settings
    var statistics = BinobanStatistics()
    /// When the queued events were stored: ``oldestQueuedAt`` is the first.
    var backlog = BacklogAges<Instant>()
    /// This run's events in storage, by batch: the source of the queued counts.
    var ledger = QueueLedger()
    /// When the oldest event counted in ``BinobanStatistics/queuedEvents`` was stored (events a previous run left
    /// are not counted).
    var oldestQueuedAt: Instant? { backlog.oldest }

    /// Where the pipeline is in its life.
    var phase: Phase {
        switch lifetime.life {
        case .created: return .created
        case .running: return .running
        case .stopping(let deadline, let deadlinePassed):
            return .stopping(deadline: deadline, deadlinePassed: deadlinePassed)
        case .stopped: return .stopped
        }
    }

    /// The write stage: the intake's signals, the current drain and its flush tickets (``WriteStageMachine``).
    var writes = WriteStageMachine()
    /// Where the current drain is.
    var writeStage: WriteStage { writes.stage }
    /// When a pass is asked for: the count rule, the interval, a resume, a drain's tickets (``FlushTriggerMachine``).
    var flushes = FlushTriggerMachine()

    var identity: IdentitySaving = .idle
    /// Purges of the backlog asked for and running (``PurgeMachine``).
    var purges = PurgeMachine()

    typealias UploadItem = UploadWorkMachine.UploadItem
    typealias Pass = UploadWorkMachine.Pass
    typealias Passes = UploadWorkMachine.Passes
    typealias Verdict = UploadWorkMachine.Verdict

    /// What an answer with `status` means for its batch (``UploadWorkMachine/verdict(forStatus:)``).
    static func verdict(forStatus status: Int) -> Verdict { UploadWorkMachine.verdict(forStatus: status) }

    /// The upload work: its batches and their states, the passes, the listing, and whether finished events are
    /// named (``UploadWorkMachine``).
    var uploads: UploadWorkMachine
    /// The batches of the current upload work.
    var work: [UploadItem] { uploads.work }
    /// The upload passes: none, or the running one with its follow-up.
    var passes: Passes { uploads.passes }
    /// The running pass.
    var pass: Pass? { uploads.pass }
    /// A listing is out.
    var listing: Bool { uploads.listing }
    /// Whether finished events are named (``PipelineAction/deliver(_:)``): with a delivery observer from the start,
    /// otherwise from the first drain that brings an event a caller awaits. Naming never stops: setting `false`
    /// changes nothing.
    var namesEvents: Bool {
        get { uploads.namesEvents }
        set { if newValue { _ = uploads.handle(.awaitedEventsDrained) } }
    }
    var gate = UploadGate<Instant>()
    /// No request starts before this instant: the later of the backoff and the server's `Retry-After`.
    var gateUntil: Instant? { gate.until }
    /// Transient failures since the last answered request that was final; grows across passes.
    var failureStreak: Int { gate.streak }
    /// What each awaited flush returns.
    var flushResults = FlushResults()
    /// The interval flush and the error reporter's summaries.
    var timers = PipelineTimers<Instant>()
    /// When the interval flush is due.
    var intervalDeadline: Instant? { timers.interval }
    /// When the error reporter's pending summaries are due; the shutdown delivers what is left.
    var summaryDeadline: Instant? { timers.summary }

    init(rules: PipelineRules, settings: EventIntake.Settings) {
        self.rules = rules
        self.settings = settings
        uploads = UploadWorkMachine(
            namesEvents: rules.reportsDeliveries, maxConcurrentUploads: rules.maxConcurrentUploads,
            maxFilesPerFlush: rules.maxFilesPerFlush)
    }

    /// The next instant at which ``PipelineInput/timerFired`` must be fed, if any.
    var nextDeadline: Instant? {
        timers.next(summaries: lifetime.life != .stopped, waitsOnGate ? gateUntil : nil, lifetime.deadline)
    }

    /// Whether the pipeline has nothing to do until an input arrives or a timer fires (no action outstanding). A
    /// write held for room counts (Decision 0226): it waits for an answer (then a request is out, which is not
    /// quiet), for the backoff gate or the interval (time), or for a resume (a call); its events are counted in
    /// ``BinobanStatistics/heldEvents``.
    var isQuiet: Bool {
        (writes.isIdle || writes.waitsForRoom) && uploads.isQuiet && identity == .idle
    }

    /// Whether events the intake holds stay there for now: they wait behind a write held for room, and are taken
    /// once room is freed (the intake's settings are taken at once).
    var leavesIntakeEventsWaiting: Bool { writes.waitsForRoom }

    // MARK: Transitions

    mutating func handle(_ input: Input, at now: Instant) -> [PipelineAction] {
        var actions: [PipelineAction] = []
        switch input {
        case .started:
            perform(lifetime.handle(.started, at: now), at: now, &actions)
        case .storageFound(let events, let bytes):
            found(events: events, bytes: bytes, at: now)
        case .intakeHasWork:
            perform(writes.handle(.intakeHasWork), &actions)
        case .settingsTaken(let new, let pausedSinceLastDrain):
            if let new { applySettings(new, pausedSinceLastDrain: pausedSinceLastDrain, at: now, &actions) }
        case .drained(let drain):
            apply(drain, at: now, &actions)
        case .written(let report, let storedBytes, let moreInDrain, let placedBytes):
            backlog.stored(report.storedEvents, at: now)
            found(events: report.recoveredEvents, bytes: report.recoveredBytes, at: now)
            recordWrite(report, storedBytes: storedBytes, placedBytes: placedBytes, moreInDrain: moreInDrain, &actions)
        case .stageDropped(let drops):
            for drop in drops {
                statistics.heldEvents -= drop.count
                let key = statistics.dropped.countStageDrops(drop.count, reason: drop.reason)
                deliver(.dropped(.stage(key)), drop.count, .named(drop.messageIds), &actions)
            }
        case .writeFailed(let lost, let moreInDrain, let message, let stored, let storedBytes, let placedBytes):
            recordStoredBeforeFailure(stored, storedBytes: storedBytes, placedBytes: placedBytes, at: now, &actions)
            statistics.heldEvents -= stored.storedEvents + lost
            statistics.dropped.storageFailure += lost
            deliver(.dropped(.storageFailure), lost, .lost, &actions)
            actions.append(.report(.storage, "\(lost) events could not be stored: \(message)", eventCount: lost))
            perform(writes.handle(.writeFailed(moreInDrain: moreInDrain)), &actions)
        case .listed(let ids, let closed):
            found(events: closed.recoveredEvents, bytes: closed.recoveredBytes, at: now)
            recordEvictions(closed, &actions)
            // Closing the open batch evicted (a batch larger than the byte cap evicts itself): room was freed.
            if closed.evictedBatches > 0 { endHold(&actions) }
            perform(uploads.handle(.listed(ids, full: ids.count >= rules.maxFilesPerFlush)), &actions)
        case .listFailed(let message):
            perform(uploads.handle(.listFailed), &actions)
            actions.append(.report(.storage, "stored batches could not be listed: \(message)", eventCount: 0))
        case .readExpiring(let id, let eventCount, let bytes, let expired):
            perform(uploads.handle(.expired(id, expired)), &actions)
            batchRead(id, eventCount: eventCount, bytes: bytes, &actions)
        case .read(let id, let eventCount, let bytes):
            batchRead(id, eventCount: eventCount, bytes: bytes, &actions)
        case .vanished(let id):
            // Gone since it was listed: the write that evicted it counted its events, and freed room.
            endHold(&actions)
            perform(uploads.handle(.vanished(id)), &actions)
        case .readFailed(let id, let message):
            perform(uploads.handle(.leave(id)), &actions)
            stopPass(&actions)
            actions.append(.report(.storage, "\(id) could not be read; it is kept: \(message)", eventCount: 0))
        case .answered(let id, let status, let retryAfter, let jitter):
            answered(id, status: status, retryAfter: retryAfter, jitter: jitter, at: now, &actions)
        case .noAnswer(let id, let jitter, let failure):
            statistics.requests.noAnswer += 1
            failed(id, .noAnswer(failure), retryAfter: nil, jitter: jitter, at: now, &actions)
        case .removed(let id):
            perform(uploads.handle(.leave(id)), &actions)
            endHold(&actions)
        case .removeFailed(let id, let message):
            perform(uploads.handle(.leave(id)), &actions)
            actions.append(
                .report(.storage, "\(id) was answered but could not be deleted: \(message)", eventCount: 0))
        case .identitySaved(let failure):
            // An answer to no save of this machine changes nothing (the driver answers each save once).
            guard identity.saved() else { break }
            if let failure {
                actions.append(.report(.keyValueStore, "the identity could not be saved: \(failure)", eventCount: 0))
            }
        case .timerFired:
            timerFired(at: now, &actions)
        case .summaryPending(let at):
            // The earliest pending summary is already timed: the reporter is asked again once it is delivered. Once
            // stopped, the deadline is kept but never fires (the driver delivers what is left when it finishes).
            timers.summaryPending(at: at)
        case .purgeRequested(let waiter):
            perform(purges.handle(.requested(waiter: waiter)), &actions)
        case .purged(let report):
            found(events: report.closed.recoveredEvents, bytes: report.closed.recoveredBytes, at: now)
            purged(report, &actions)
        case .stop(let deadline):
            perform(lifetime.handle(.stop(deadline: deadline), at: now), at: now, &actions)
        }
        pump(at: now, &actions)
        Self.startRequestsFirst(&actions)
        return actions
    }

    /// Performs what the life asked for (``PipelineLifeMachine/Action``).
    mutating func perform(
        _ action: PipelineLifeMachine<Instant>.Action?, at now: Instant, _ actions: inout [PipelineAction]
    ) {
        switch action {
        case nil:
            break
        case .run(let stopBy):
            if settings.enabled {
                request(exhaustive: false, waiters: [], &actions)
                timers.armInterval(at: now, every: settings.flushInterval)
            }
            // A shutdown that came while the storage was opening takes effect now that the storage is open.
            if let stopBy { perform(lifetime.handle(.stop(deadline: stopBy), at: now), at: now, &actions) }
        case .beginStopping:
            timers.stopInterval()
            timerFired(at: now, &actions)
        case .deadlinePassed:
            actions.append(.cancelUploads)
            abandonPasses(.interrupted, &actions)
            letGoOfWaitingWork(&actions)
        case .finish:
            perform(purges.handle(.stopped), &actions)
            timers.stopAll()
            gate.close()
            abandonPasses(.interrupted, &actions)
            letGoOfUnsettledWork(&actions)
            actions.append(.finish)
        }
    }

    // MARK: Timers and shutdown

    var stopDeadlinePassed: Bool { lifetime.deadlinePassed }

    /// Whether events a full storage refuses are held until an upload frees room (rather than dropped or, with
    /// ``BinobanBackpressure/dropOldest``, written again evicting the oldest batches). A burst is not an outage:
    /// while uploads work, even ``BinobanBackpressure/dropOldest`` waits for them, and evicts only while they
    /// fail, are impossible (paused, no transport), or the shutdown deadline passed.
    var holdsWhenFull: Bool {
        guard !stopDeadlinePassed else { return false }
        switch rules.backpressure {
        case .wait: return true
        case .dropNewest: return false
        case .dropOldest: return settings.enabled && rules.hasTransport && !gate.isFailing
        }
    }

    /// Whether anything waits for the backoff gate to open.
    var waitsOnGate: Bool { uploads.waitsOnGate }

    mutating func timerFired(at now: Instant, _ actions: inout [PipelineAction]) {
        if timers.takeSummaryDue(at: now) { actions.append(.deliverSummaries) }
        gate.passTime(to: now)
        if timers.takeIntervalDue(at: now, every: settings.flushInterval) {
            perform(flushes.handle(.intervalDue), &actions)
        }
        perform(lifetime.handle(.timePassed, at: now), at: now, &actions)
    }

    // MARK: Issuing work

    /// Issues what can start now: the next write, an identity save, a listing, reads and sends; and finishes a
    /// pass or the shutdown when everything settled.
    mutating func pump(at now: Instant, _ actions: inout [PipelineAction]) {
        guard lifetime.isActive else { return }
        let holds = holdsWhenFull
        let whenFull: BinobanStorageFullBehaviour = holds || rules.backpressure != .dropOldest ? .refuse : .evictOldest
        perform(writes.handle(.pump(holdsWhenFull: holds, whenFull: whenFull)), &actions)
        if let snapshot = identity.start() { actions.append(.saveIdentity(snapshot)) }
        startPurge(&actions)
        pumpUploads(at: now, &actions)
        finishIfDone(at: now, &actions)
    }

    mutating func finishIfDone(at now: Instant, _ actions: inout [PipelineAction]) {
        guard let deadlinePassed = lifetime.stoppingDeadlinePassed else { return }
        guard writes.isDone, identity == .idle, !purges.isRunning, uploads.isDone || deadlinePassed else { return }
        perform(lifetime.handle(.settled, at: now), at: now, &actions)
    }

    /// Ends the running pass and its follow-up, resolving their waiters with `outcome`.
    mutating func abandonPasses(_ outcome: BinobanFlushResult.Outcome, _ actions: inout [PipelineAction]) {
        perform(uploads.handle(.abandonPasses(outcome)), &actions)
    }
}
