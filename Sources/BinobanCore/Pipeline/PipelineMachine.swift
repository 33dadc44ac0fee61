/// Every rule of the Binoban pipeline as one value-type machine: the write stage and its backpressure, the
/// count, interval and explicit flushes, awaited flushes and their results, pause and resume, upload passes
/// with concurrent requests, retries, backoff that grows across passes, `Retry-After`, eviction accounting,
/// identity persistence and shutdown.
///
/// It reads no clock, does no I/O, starts no task and draws no random number: inputs come stamped with the
/// instant (``handle(_:at:)``), jitter comes inside the answers, and the only timer is ``nextDeadline``, which
/// the driver sleeps until before feeding ``PipelineInput/timerFired``. Every action returned must be performed.
/// `Docs/Architecture.md` draws the inputs and actions; `Docs/Decisions/0207` records the shape.
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

    /// One batch of the current upload work.
    struct UploadItem: Sendable, Equatable {
        enum State: Sendable, Equatable {
            /// Listed, not yet read.
            case queued
            /// Being read.
            case reading
            /// Read and held by the driver; sent when the backoff gate opens.
            case ready
            /// Sent; the answer is awaited.
            case sending
            /// Answered for good; being deleted.
            case removing
        }

        var id: BinobanBatchID
        var state: State = .queued
        var eventCount = 0
        var bytes = 0
        var retries = 0
        /// The backoff generation the last request of this batch was sent in.
        var sentInGeneration = 0
        /// The storage evicted this batch while it was being read or sent; its events are counted as evicted
        /// only if it is not delivered.
        var evictedEvents: Int?
        /// Why its last request failed, if one did: told to the delivery observer if the batch is kept.
        var lastFailure: BinobanUploadFailure?
        /// Its events older than ``Configuration/maxEventAge`` when it was read: left out of its request, counted
        /// when the batch leaves storage (a kept batch is read, and its events judged, again).
        var expired: ExpiredRead?
    }

    /// One upload pass: list at most `maxFilesPerFlush` batches and settle each one.
    struct Pass: Sendable, Equatable {
        /// An awaited flush: passes repeat while a full pass succeeded.
        var exhaustive: Bool
        /// Callers resolved when the pass ends.
        var waiters: [UInt64]
        /// The listing is still to be asked for (it waits for the backoff gate, so the open batch keeps
        /// growing while uploads back off).
        var needsListing = true
        /// The last listing returned as many batches as were asked for: more may be waiting.
        var listedFull = false
        /// A batch was kept after its retries (or unreadable): the pass sends nothing more.
        var kept = false
        /// A batch left storage during the pass (delivered or rejected): uploads are making progress.
        var progressed = false
        /// The last listing found only batches already in the work (all of the first ones are in flight): listing
        /// ahead again would find the same until one of them leaves the work. With storage answering at once
        /// (the loop calls it inline), listing ahead would otherwise repeat without end.
        var listedOnlyKnown = false
    }

    /// Counts at the moment an awaited flush was registered, to compute its result.
    private struct Baseline: Sendable, Equatable {
        var uploadedBatches: Int
        var uploadedEvents: Int
        var rejectedBatches: Int
        var rejectedEvents: Int
    }

    /// The machine's life; ``phase`` is its public face.
    private enum Life: Sendable, Equatable {
        /// Waiting for the storage to open; `stopAt` is the deadline of a shutdown that already arrived.
        case created(stopAt: Instant?)
        case running
        case stopping(deadline: Instant, deadlinePassed: Bool)
        case stopped
    }

    let rules: PipelineRules
    private var life: Life = .created(stopAt: nil)
    private(set) var settings: EventIntake.Settings
    private(set) var statistics = BinobanStatistics()
    /// When the queued events were stored: ``oldestQueuedAt`` is the first.
    private var backlog = BacklogAges<Instant>()
    /// When the oldest event counted in ``BinobanStatistics/queuedEvents`` was stored (events a previous run left
    /// are not counted).
    var oldestQueuedAt: Instant? { backlog.oldest }

    /// Where the pipeline is in its life.
    var phase: Phase {
        switch life {
        case .created: return .created
        case .running: return .running
        case .stopping(let deadline, let deadlinePassed):
            return .stopping(deadline: deadline, deadlinePassed: deadlinePassed)
        case .stopped: return .stopped
        }
    }

    // Write stage.
    /// The intake signalled work that was not taken yet.
    private var intakePending = false
    /// The intake signalled since the write was held: its settings may have changed (a pause or a resume), and
    /// a held write does not take the intake's events.
    private var settingsMayHaveChanged = false
    private var intakeClosed = false
    /// A pass that lists after a refusal is always requested, so something frees room or ends a hold
    /// (``holdRefused(_:)``).
    private(set) var writeStage: WriteStage = .idle
    private var storedSinceFlush = 0

    private(set) var identity: IdentitySaving = .idle
    /// Purges of the backlog asked for and running.
    private var purges = PurgeRequests()

    // Uploads.
    /// The upload passes: none, or the running one with at most one follow-up merged from later requests (a
    /// follow-up without a running pass cannot be written down).
    enum Passes: Sendable, Equatable {
        case none
        case running(Pass, followUp: Pass?)
    }

    private(set) var passes: Passes = .none
    /// The running pass; setting it keeps the follow-up, and setting `nil` ends both.
    private var pass: Pass? {
        get {
            guard case .running(let current, _) = passes else { return nil }
            return current
        }
        set {
            guard let newValue else {
                passes = .none
                return
            }
            passes = .running(newValue, followUp: followUp)
        }
    }
    private var followUp: Pass? {
        guard case .running(_, let followUp) = passes else { return nil }
        return followUp
    }
    private var listing = false
    /// Whether finished events are named (``PipelineAction/deliver(_:)``): with a delivery observer from the start,
    /// otherwise from the first drain that brings an event a caller awaits.
    private var namesEvents: Bool
    private(set) var work: [UploadItem] = []
    private(set) var gate = UploadGate<Instant>()
    /// No request starts before this instant: the later of the backoff and the server's `Retry-After`.
    var gateUntil: Instant? { gate.until }
    /// Transient failures since the last answered request that was final; grows across passes.
    var failureStreak: Int { gate.streak }
    private var baselines: [UInt64: Baseline] = [:]
    private var droppedAtLastResult = 0
    private(set) var intervalDeadline: Instant?
    /// When the error reporter's pending summaries are due; the shutdown delivers what is left.
    private(set) var summaryDeadline: Instant?

    init(rules: PipelineRules, settings: EventIntake.Settings) {
        self.rules = rules
        self.settings = settings
        namesEvents = rules.reportsDeliveries
    }

    /// The next instant at which ``PipelineInput/timerFired`` must be fed, if any.
    var nextDeadline: Instant? {
        var deadlines: [Instant] = []
        if let intervalDeadline { deadlines.append(intervalDeadline) }
        if let summaryDeadline, life != .stopped { deadlines.append(summaryDeadline) }
        if let gateUntil, waitsOnGate { deadlines.append(gateUntil) }
        if case .stopping(let deadline, false) = life { deadlines.append(deadline) }
        return deadlines.min()
    }

    /// Whether the pipeline has nothing to do until an input arrives (no action outstanding but timers).
    var isQuiet: Bool {
        writeStage == .idle && !intakePending && !listing && identity == .idle
            && work.allSatisfy { $0.state == .queued || $0.state == .ready }
    }

    // MARK: Transitions

    mutating func handle(_ input: Input, at now: Instant) -> [PipelineAction] {
        var actions: [PipelineAction] = []
        switch input {
        case .started:
            // The driver starts the machine once; a second start changes nothing.
            guard case .created(let stopAt) = life else { break }
            life = .running
            if settings.enabled {
                request(exhaustive: false, waiters: [], &actions)
                intervalDeadline = now.advanced(by: settings.flushInterval)
            }
            // A shutdown that came while the storage was opening takes effect now that the storage is open.
            if let stopAt { stop(deadline: stopAt, at: now, &actions) }
        case .intakeHasWork:
            intakePending = true
            settingsMayHaveChanged = true
        case .settingsTaken(let new, let pausedSinceLastDrain):
            if let new { applySettings(new, pausedSinceLastDrain: pausedSinceLastDrain, at: now, &actions) }
        case .drained(let drain):
            apply(drain, at: now, &actions)
        case .written(let report, let storedBytes, let moreInDrain):
            backlog.stored(report.storedEvents, at: now)
            recordWrite(report, storedBytes: storedBytes, moreInDrain: moreInDrain, &actions)
        case .stageDropped(let drops):
            for drop in drops {
                let key = statistics.dropped.countStageDrops(drop.count, reason: drop.reason)
                deliver(.dropped(.stage(key)), drop.count, .named(drop.messageIds), &actions)
            }
        case .writeFailed(let lost, let moreInDrain, let message):
            statistics.dropped.storageFailure += lost
            deliver(.dropped(.storageFailure), lost, .lost, &actions)
            actions.append(.report(.storage, "\(lost) events could not be stored: \(message)", eventCount: lost))
            // The driver answers each write once, so the stage is `writing` here; its tickets are the drain's.
            let tickets = writeStage.tickets
            if moreInDrain {
                writeStage = .draining(tickets: tickets)
            } else {
                // The chunk's events are counted as lost: the drain is over, and its flushes go on.
                writeStage = .idle
                honour(tickets, &actions)
            }
        case .listed(let ids, let closed):
            listing = false
            recordEvictions(closed, &actions)
            // Closing the open batch evicted (a batch larger than the byte cap evicts itself): room was freed.
            if closed.evictedBatches > 0 { endHold() }
            let known = Set(work.map(\.id))
            let fresh = ids.filter { !known.contains($0) }
            work += fresh.map { UploadItem(id: $0) }
            let full = ids.count >= rules.maxFilesPerFlush
            pass?.listedFull = full
            pass?.listedOnlyKnown = fresh.isEmpty && !ids.isEmpty
        case .listFailed(let message):
            listing = false
            pass?.kept = true
            actions.append(.report(.storage, "stored batches could not be listed: \(message)", eventCount: 0))
        case .readExpiring(let id, let eventCount, let bytes, let expired):
            update(id) { $0.expired = expired }
            batchRead(id, eventCount: eventCount, bytes: bytes, &actions)
        case .read(let id, let eventCount, let bytes):
            batchRead(id, eventCount: eventCount, bytes: bytes, &actions)
        case .vanished(let id):
            // Gone since it was listed: the write that evicted it counted its events, and freed room.
            endHold()
            if let item = take(id), let evicted = item.evictedEvents {
                countEviction(evicted, batches: [id], count: 1, &actions)
            }
        case .readFailed(let id, let message):
            _ = take(id)
            stopPass(&actions)
            actions.append(.report(.storage, "\(id) could not be read; it is kept: \(message)", eventCount: 0))
        case .answered(let id, let status, let retryAfter, let jitter):
            answered(id, status: status, retryAfter: retryAfter, jitter: jitter, at: now, &actions)
        case .noAnswer(let id, let jitter, let failure):
            statistics.requests.noAnswer += 1
            failed(id, .noAnswer(failure), retryAfter: nil, jitter: jitter, at: now, &actions)
        case .removed(let id):
            _ = take(id)
            endHold()
        case .removeFailed(let id, let message):
            _ = take(id)
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
            if summaryDeadline == nil { summaryDeadline = at }
        case .purgeRequested(let waiter):
            purges.requested(waiter)
        case .purged(let report):
            purged(report, &actions)
        case .stop(let deadline):
            switch life {
            case .created(let earlier):
                // The storage is still opening: nothing can be written or sent before `started`, which applies it.
                // A second shutdown changes nothing: the first one's deadline holds.
                if earlier == nil { life = .created(stopAt: deadline) }
            case .running:
                stop(deadline: deadline, at: now, &actions)
            case .stopping, .stopped:
                // A second shutdown changes nothing: the first one's deadline holds.
                break
            }
        }
        pump(at: now, &actions)
        return actions
    }

    private mutating func stop(deadline: Instant, at now: Instant, _ actions: inout [PipelineAction]) {
        life = .stopping(deadline: deadline, deadlinePassed: false)
        intervalDeadline = nil
        timerFired(at: now, &actions)
    }

    // MARK: Write stage

    private mutating func apply(_ drain: PipelineDrain, at now: Instant, _ actions: inout [PipelineAction]) {
        if drain.awaitedEvents > 0, !namesEvents {
            // Before this drain's events are encoded, so that the awaited ones are named from here on.
            namesEvents = true
            actions.append(.nameEvents)
        }
        statistics.acceptedEvents += drain.acceptedEvents
        drop(
            drain.overflowDrops, \.writeStageOverflow, .writeStageOverflow, "because the write stage was full",
            (.writeStageOverflow, .overflowed), &actions)
        drop(
            drain.pausedDrops, \.paused, .pausedDrop, "because they were tracked while the instance was paused",
            (.paused, .unnamed), &actions)
        if let changed = drain.identity { identity.changed(to: changed) }
        if let new = drain.settings {
            applySettings(new, pausedSinceLastDrain: drain.pausedSinceLastDrain, at: now, &actions)
        }
        intakeClosed = intakeClosed || drain.closed
        // A drain answers a `takeDrain`, asked only while no drain is held.
        let earlier = writeStage.tickets
        if drain.eventCount > 0 {
            writeStage = .draining(tickets: earlier + drain.tickets)
        } else {
            writeStage = .idle
            honour(earlier + drain.tickets, &actions)
        }
    }

    /// Applies a settings change taken from the intake (with a drain, or alone while a write is held).
    private mutating func applySettings(
        _ new: EventIntake.Settings, pausedSinceLastDrain: Bool, at now: Instant, _ actions: inout [PipelineAction]
    ) {
        if pausedSinceLastDrain, new.enabled, settings.enabled {
            // Paused and resumed between two takes: the resume still uploads.
            change(
                to: EventIntake.Settings(enabled: false, flushAt: new.flushAt, flushInterval: new.flushInterval),
                at: now, &actions)
        }
        change(to: new, at: now, &actions)
    }

    /// Room may have been freed: a held suffix is written again.
    private mutating func endHold() {
        if case .holding(let tickets) = writeStage { writeStage = .draining(tickets: tickets) }
    }

    private mutating func recordWrite(
        _ report: BinobanStorageWriteReport, storedBytes: Int, moreInDrain: Bool, _ actions: inout [PipelineAction]
    ) {
        // The driver answers each write once, so the stage is `writing` here; its tickets are the drain's.
        let tickets = writeStage.tickets
        writeStage = moreInDrain ? .draining(tickets: tickets) : .idle
        statistics.storedEvents += report.storedEvents
        statistics.queuedEvents += report.storedEvents
        statistics.queuedBytes += storedBytes
        drop(
            report.rejectedOversizeEvents, \.oversize, .oversizeEvent,
            "because each encoded to the event size limit or more", (.oversize, .oversize), &actions)
        recordEvictions(report, &actions)
        if report.refusedEvents > 0 {
            if holdsWhenFull {
                holdRefused(tickets, &actions)
            } else {
                refuse(report.refusedEvents, &actions)
            }
        }
        if settings.enabled, report.storedEvents > 0 {
            storedSinceFlush += report.storedEvents
            if storedSinceFlush >= settings.flushAt {
                storedSinceFlush = 0
                request(exhaustive: false, waiters: [], &actions)
            }
        }
        if writeStage == .idle { honour(tickets, &actions) }
    }

    /// Holds the refused suffix until room may have been freed, and asks for a pass that lists after this
    /// refusal: the running pass may have listed before the storage filled (or its listing's close may evict
    /// the very batch that filled it), and once it ends nothing would free room, so the held events and every
    /// flush behind them would wait forever. Flushes behind the hold that no upload can serve now (paused, no
    /// transport) are resolved at once.
    private mutating func holdRefused(_ tickets: [EventIntake.FlushTicket], _ actions: inout [PipelineAction]) {
        writeStage = .holding(tickets: tickets)
        serveHold(&actions)
    }

    /// Makes sure a pass lists after now, so the hold ends (room freed) or its flushes are told why not.
    private mutating func serveHold(_ actions: inout [PipelineAction]) {
        if pass == nil || pass?.needsListing == false { request(exhaustive: false, waiters: [], &actions) }
        if !settings.enabled {
            resolveTicketsBehindHold(.paused, &actions)
        } else if !rules.hasTransport {
            resolveTicketsBehindHold(.keptForRetry, &actions)
        }
    }

    /// Resolves the awaited flushes waiting for a held write with `outcome`: their events are kept in the write
    /// stage (written once room is freed) and no upload can make room now.
    private mutating func resolveTicketsBehindHold(
        _ outcome: BinobanFlushResult.Outcome, _ actions: inout [PipelineAction]
    ) {
        guard case .holding(let tickets) = writeStage, !tickets.isEmpty else { return }
        let base = BinobanFlushResult(outcome: outcome)
        for waiter in tickets.compactMap(\.waiterID) {
            actions.append(.resume(waiter, result(for: waiter, base: base)))
        }
        writeStage = .holding(tickets: [])
    }

    /// Counts and drops the refused suffix of the current chunk.
    private mutating func refuse(_ count: Int, _ actions: inout [PipelineAction]) {
        // Before the discard: the driver names the refused events from the suffix it is about to drop.
        deliver(.dropped(.storageFull), count, .refused, &actions)
        actions.append(.discardRefused)
        drop(count, \.storageFull, .storageFull, "because the storage is full", nil, &actions)
    }

    /// Counts `count` dropped events under `counter` and reports them, with their number, as `kind`.
    private mutating func drop(
        _ count: Int, _ counter: WritableKeyPath<BinobanStatistics.Drops, Int>, _ kind: BinobanError.Kind,
        _ reason: String, _ delivery: (BinobanDropReason, DeliveryNotice.Events)?, _ actions: inout [PipelineAction]
    ) {
        guard count > 0 else { return }
        statistics.dropped[keyPath: counter] += count
        actions.append(.report(kind, "\(count) events were dropped \(reason)", eventCount: count))
        if let delivery { deliver(.dropped(delivery.0), count, delivery.1, &actions) }
    }

    /// Tells the delivery observer that `count` events finished with `outcome`, when one listens.
    private func deliver(
        _ outcome: BinobanDeliveryOutcome, _ count: Int, _ events: DeliveryNotice.Events,
        _ actions: inout [PipelineAction]
    ) {
        guard namesEvents, count > 0 else { return }
        actions.append(.deliver(DeliveryNotice(outcome: outcome, eventCount: count, events: events)))
    }

    /// Evicted batches that are being uploaded are counted only if they are not delivered.
    private mutating func recordEvictions(_ report: BinobanStorageWriteReport, _ actions: inout [PipelineAction]) {
        guard report.evictedBatches > 0 else { return }
        var immediateEvents = report.evictedEvents
        var immediateBatches = report.evictedBatches
        var immediateIDs: [BinobanBatchID] = []
        for (id, events) in report.evictedBatchEvents.sorted(by: { $0.key < $1.key }) {
            guard let index = work.firstIndex(where: { $0.id == id }) else {
                immediateIDs.append(id)
                continue
            }
            if work[index].state == .queued {
                work.remove(at: index)
                immediateIDs.append(id)
            } else {
                work[index].evictedEvents = events
                immediateEvents -= events
                immediateBatches -= 1
            }
        }
        countEviction(immediateEvents, batches: immediateIDs, count: immediateBatches, &actions)
    }

    /// Counts evicted events. `batches` are the evicted batches the storage named (the awaited events among them
    /// are known by batch), `count` how many batches there were; `delivered`: the observer was told already (from
    /// the evicted batch the driver held).
    private mutating func countEviction(
        _ events: Int, batches: [BinobanBatchID], count: Int, delivered: Bool = false,
        _ actions: inout [PipelineAction]
    ) {
        guard events > 0 || count > 0 else { return }
        statistics.dropped.storageEviction += events
        if !delivered { deliver(.dropped(.storageEviction), events, .evicted(batches), &actions) }
        dequeue(events: events, bytes: nil)
        actions.append(
            .report(
                .storageEviction,
                "\(count) stored batches (\(events) events) were dropped to respect the storage caps (oldest first)",
                eventCount: events))
    }

    /// Lowers the queue depth; unknown bytes are estimated from the average stored event.
    private mutating func dequeue(events: Int, bytes: Int?) {
        let queued = max(1, statistics.queuedEvents)
        let estimate = bytes ?? Int((Double(statistics.queuedBytes) / Double(queued) * Double(events)).rounded())
        statistics.queuedEvents = max(0, statistics.queuedEvents - events)
        statistics.queuedBytes = statistics.queuedEvents == 0 ? 0 : max(0, statistics.queuedBytes - estimate)
        if statistics.queuedEvents == 0 { backlog.clear() } else { backlog.left(events) }
    }

    // MARK: Settings and flush requests

    private mutating func change(to new: EventIntake.Settings, at now: Instant, _ actions: inout [PipelineAction]) {
        let old = settings
        settings = new
        guard life == .running else { return }
        if !new.enabled {
            guard old.enabled else { return }
            intervalDeadline = nil
            abandonPasses(.paused, &actions)
            resolveTicketsBehindHold(.paused, &actions)
            work.removeAll { $0.state == .queued }
            return
        }
        if !old.enabled {
            storedSinceFlush = 0
            request(exhaustive: false, waiters: [], &actions)
            intervalDeadline = now.advanced(by: new.flushInterval)
            return
        }
        if storedSinceFlush >= new.flushAt {
            storedSinceFlush = 0
            request(exhaustive: false, waiters: [], &actions)
        }
        if new.flushInterval != old.flushInterval { intervalDeadline = now.advanced(by: new.flushInterval) }
    }

    private mutating func honour(_ tickets: [EventIntake.FlushTicket], _ actions: inout [PipelineAction]) {
        guard !tickets.isEmpty else { return }
        storedSinceFlush = 0
        let waiters = tickets.compactMap(\.waiterID)
        request(exhaustive: !waiters.isEmpty, waiters: waiters, &actions)
    }

    /// Starts a pass, or merges into the running pass's single follow-up.
    private mutating func request(exhaustive: Bool, waiters: [UInt64], _ actions: inout [PipelineAction]) {
        guard settings.enabled else {
            for waiter in waiters {
                actions.append(.resume(waiter, result(for: waiter, base: .init(outcome: .paused))))
            }
            return
        }
        guard rules.hasTransport else {
            actions.append(.report(.transportMissing, MissingEventTransport().description, eventCount: 0))
            for waiter in waiters {
                actions.append(.resume(waiter, result(for: waiter, base: .init(outcome: .keptForRetry))))
            }
            return
        }
        for waiter in waiters { baselines[waiter] = baseline }
        switch passes {
        case .none:
            passes = .running(Pass(exhaustive: exhaustive, waiters: waiters), followUp: nil)
        case .running(let current, let followUp):
            var merged = followUp ?? Pass(exhaustive: false, waiters: [])
            merged.exhaustive = merged.exhaustive || exhaustive
            merged.waiters += waiters
            passes = .running(current, followUp: merged)
        }
    }

    private var baseline: Baseline {
        Baseline(
            uploadedBatches: statistics.uploadedBatches, uploadedEvents: statistics.uploadedEvents,
            rejectedBatches: statistics.requests.rejected, rejectedEvents: statistics.dropped.rejected)
    }

    /// An awaited flush's result: what was uploaded and rejected while it waited, and every event dropped since
    /// the previous result.
    private mutating func result(for waiter: UInt64, base: BinobanFlushResult) -> BinobanFlushResult {
        let start = baselines.removeValue(forKey: waiter) ?? baseline
        var result = base
        result.uploadedBatches = statistics.uploadedBatches - start.uploadedBatches
        result.uploadedEvents = statistics.uploadedEvents - start.uploadedEvents
        result.rejectedBatches = statistics.requests.rejected - start.rejectedBatches
        result.rejectedEvents = statistics.dropped.rejected - start.rejectedEvents
        result.droppedEvents = statistics.dropped.total - droppedAtLastResult
        droppedAtLastResult = statistics.dropped.total
        return result
    }

    // MARK: Uploads

    /// A batch was read: it waits for the gate to be sent, unless its pass kept a batch meanwhile (the pass sends
    /// nothing more: it is kept unsent) or every event of it expired (nothing to send: it leaves storage).
    private mutating func batchRead(
        _ id: BinobanBatchID, eventCount: Int, bytes: Int, _ actions: inout [PipelineAction]
    ) {
        update(id) { item in
            item.state = .ready
            item.eventCount = eventCount
            item.bytes = bytes
        }
        if pass?.kept == true {
            stopPass(&actions)
        } else if eventCount == 0, work.contains(where: { $0.id == id && $0.expired != nil }) {
            pass?.progressed = true
            settle(id, &actions)
        }
    }

    /// Counts the expired events of a batch leaving storage after its final answer (or with every event expired),
    /// and lowers the queue by the whole batch.
    private mutating func leaveStorage(_ item: UploadItem, _ actions: inout [PipelineAction]) {
        let expired = item.expired ?? ExpiredRead(count: 0, messageIds: [])
        drop(
            expired.count, \.expired, .expiredEvent, "because they were older than maxEventAge when read for upload",
            (.expired, .named(expired.messageIds)), &actions)
        dequeue(events: item.eventCount + expired.count, bytes: item.bytes)
    }

    /// A batch is done with (answered for good, or every event expired): its events leave the queue, and it is
    /// deleted from storage, or let go when its eviction already deleted it.
    private mutating func settle(_ id: BinobanBatchID, _ actions: inout [PipelineAction]) {
        guard let index = work.firstIndex(where: { $0.id == id }) else { return }
        let item = work[index]
        leaveStorage(item, &actions)
        if item.evictedEvents != nil {
            // Already gone from storage (its eviction freed room, and was left to this outcome to count).
            endHold()
            _ = take(id)
            actions.append(.forget(id))
        } else {
            work[index].state = .removing
            actions.append(.remove(id))
        }
    }

    private mutating func answered(
        _ id: BinobanBatchID, status: Int, retryAfter: Duration?, jitter: Double, at now: Instant,
        _ actions: inout [PipelineAction]
    ) {
        guard let item = work.first(where: { $0.id == id }) else { return }
        switch Self.verdict(forStatus: status) {
        case .accepted:
            statistics.requests.accepted += 1
            gate.answeredFinally()
            statistics.uploadedBatches += 1
            statistics.uploadedEvents += item.eventCount
            deliver(.uploaded, item.eventCount, .batch(id), &actions)
        case .rejected:
            statistics.requests.rejected += 1
            gate.answeredFinally()
            statistics.dropped.rejected += item.eventCount
            deliver(.rejected(status: status), item.eventCount, .batch(id), &actions)
            actions.append(
                .report(
                    .batchRejected,
                    "the server rejected \(id) (\(item.eventCount) events) with status \(status); it was dropped",
                    eventCount: item.eventCount))
        case .transient:
            statistics.requests.transientFailures += 1
            failed(id, .status(status), retryAfter: retryAfter, jitter: jitter, at: now, &actions)
            return
        }
        pass?.progressed = true
        settle(id, &actions)
    }

    private mutating func failed(
        _ id: BinobanBatchID, _ failure: BinobanUploadFailure, retryAfter: Duration?, jitter: Double, at now: Instant,
        _ actions: inout [PipelineAction]
    ) {
        statistics.retryWaits += 1
        let item = work.first { $0.id == id }
        // The batch's own next retry, or nil when this failure ends the pass (used up, or the pass already kept
        // a batch: the ingest counts as down, so the rest of the pass is kept without more attempts).
        // A failure no retry can mend (a plain-HTTP server answered the TLS hello) uses the batch's retries up at once.
        let hopeless = failure.retryCannotHelp
        let retry = item.map { $0.retries + 1 }.flatMap {
            $0 > rules.maxRetries || pass?.kept == true || hopeless ? nil : $0
        }
        let sentIn = item?.sentInGeneration ?? gate.generation
        gate.failed(sentIn: sentIn, retry: retry, retryAfter: retryAfter, jitter: jitter, at: now, rules: rules)
        guard let index = work.firstIndex(where: { $0.id == id }) else { return }
        if let evicted = work[index].evictedEvents {
            endHold()
            _ = take(id)
            deliver(.dropped(.storageEviction), evicted, .batch(id), &actions)
            actions.append(.forget(id))
            countEviction(evicted, batches: [id], count: 1, delivered: true, &actions)
            return
        }
        work[index].retries += 1
        work[index].lastFailure = failure
        guard retry == nil else {
            work[index].state = .ready
            if case .noAnswer(let transportFailure) = failure {
                actions.append(
                    .reportNoAnswer("\(id) got no answer (\(transportFailure)); it will be retried", transportFailure))
            }
            return
        }
        let usedUp = work[index].retries > rules.maxRetries || hopeless
        deliver(.keptForRetry(failure), work[index].eventCount, .batch(id), &actions)
        _ = take(id)
        actions.append(.forget(id))
        guard usedUp else {
            // Kept because its pass had already kept a batch, whose report speaks for a status; a request without
            // an answer still says why.
            if case .noAnswer(let transportFailure) = failure {
                actions.append(
                    .reportNoAnswer(
                        "\(id) got no answer (\(transportFailure)); it is kept for a later flush", transportFailure))
            }
            return
        }
        stopPass(&actions)
        let message =
            hopeless
            ? "\(id) got \(failure.noAnswerWords); retrying cannot help, so it is kept for a later flush"
            : "\(id) still failed (\(failure)) after \(rules.maxRetries) retries; it is kept for a later flush"
        if case .noAnswer(let transportFailure) = failure {
            actions.append(.reportNoAnswer(message, transportFailure))
        } else {
            actions.append(.report(.uploadFailed, message, eventCount: 0))
        }
    }

    /// A kept or unreadable batch ends the pass: nothing more is sent (the rest would most likely fail too).
    /// Batches read and waiting to be sent are kept at once; a request in flight is kept when it fails.
    private mutating func stopPass(_ actions: inout [PipelineAction]) {
        pass?.kept = true
        for item in work where item.state == .ready {
            if let evicted = item.evictedEvents {
                // Evicted while it was held: its events are gone, and counted now that it will not be delivered.
                deliver(.dropped(.storageEviction), evicted, .batch(item.id), &actions)
                actions.append(.forget(item.id))
                countEviction(evicted, batches: [item.id], count: 1, delivered: true, &actions)
            } else {
                // A batch that failed before is told kept, with its last failure; one never sent just stays stored.
                if let failure = item.lastFailure {
                    deliver(.keptForRetry(failure), item.eventCount, .batch(item.id), &actions)
                }
                actions.append(.forget(item.id))
            }
        }
        work.removeAll { $0.state == .queued || $0.state == .ready }
    }

    /// Removes an item from the work, returning it.
    private mutating func take(_ id: BinobanBatchID) -> UploadItem? {
        guard let index = work.firstIndex(where: { $0.id == id }) else { return nil }
        pass?.listedOnlyKnown = false
        return work.remove(at: index)
    }

    private mutating func update(_ id: BinobanBatchID, _ change: (inout UploadItem) -> Void) {
        guard let index = work.firstIndex(where: { $0.id == id }) else { return }
        change(&work[index])
    }

    /// 2xx accepted; 4xx other than 429 rejected; 429, 5xx, 3xx and anything else transient.
    static func verdict(forStatus status: Int) -> Verdict {
        switch status {
        case 200..<300: return .accepted
        case 429: return .transient
        case 400..<500: return .rejected
        default: return .transient
        }
    }

    /// What an answer means for its batch.
    enum Verdict: Sendable, Equatable {
        case accepted
        case rejected
        case transient
    }

    // MARK: Purging the backlog

    /// Starts the purge asked for, unless one runs: batches being read, sent or deleted stay (their outcome is
    /// on its way); batches only listed leave the work, as the purge deletes them.
    private mutating func startPurge(_ actions: inout [PipelineAction]) {
        guard purges.start() else { return }
        work.removeAll { $0.state == .queued }
        actions.append(.purge(excluding: Set(work.map(\.id)), namesEvents: namesEvents))
    }

    private mutating func purged(_ report: PurgeReport, _ actions: inout [PipelineAction]) {
        recordEvictions(report.closed, &actions)
        statistics.dropped.purged += report.events
        deliver(.dropped(.purged), report.events, .named(report.messageIds), &actions)
        dequeue(events: report.events, bytes: report.bytes)
        // Room was freed: a held write goes again.
        if report.batches > 0 || report.closed.evictedBatches > 0 { endHold() }
        if let failure = report.failure {
            actions.append(.report(.storage, "the backlog could not be purged in full: \(failure)", eventCount: 0))
        }
        let result = BinobanPurgeResult(purgedEvents: report.events, purgedBatches: report.batches)
        actions.append(.resumePurges(purges.finished(), result))
    }

    // MARK: Timers and shutdown

    private var stopDeadlinePassed: Bool {
        if case .stopping(_, true) = life { return true }
        return false
    }

    /// Whether events a full storage refuses are held until an upload frees room (rather than dropped or, with
    /// ``BinobanBackpressure/dropOldest``, written again evicting the oldest batches). A burst is not an outage:
    /// while uploads work, even ``BinobanBackpressure/dropOldest`` waits for them, and evicts only while they
    /// fail, are impossible (paused, no transport), or the shutdown deadline passed.
    private var holdsWhenFull: Bool {
        guard !stopDeadlinePassed else { return false }
        switch rules.backpressure {
        case .wait: return true
        case .dropNewest: return false
        case .dropOldest: return settings.enabled && rules.hasTransport && !gate.isFailing
        }
    }

    /// Whether anything waits for the backoff gate to open.
    private var waitsOnGate: Bool {
        pass?.needsListing == true || work.contains { $0.state == .queued || $0.state == .ready }
    }

    private mutating func timerFired(at now: Instant, _ actions: inout [PipelineAction]) {
        if let due = summaryDeadline, now >= due {
            summaryDeadline = nil
            actions.append(.deliverSummaries)
        }
        gate.passTime(to: now)
        if let deadline = intervalDeadline, now >= deadline {
            intervalDeadline = now.advanced(by: settings.flushInterval)
            storedSinceFlush = 0
            request(exhaustive: false, waiters: [], &actions)
        }
        if case .stopping(let deadline, false) = life, now >= deadline {
            life = .stopping(deadline: deadline, deadlinePassed: true)
            actions.append(.cancelUploads)
            abandonPasses(.interrupted, &actions)
            work.removeAll { $0.state == .queued || $0.state == .ready }
        }
    }

    // MARK: Issuing work

    /// Issues what can start now: the next write, an identity save, a listing, reads and sends; and finishes a
    /// pass or the shutdown when everything settled.
    private mutating func pump(at now: Instant, _ actions: inout [PipelineAction]) {
        switch life {
        case .created, .stopped: return
        case .running, .stopping: break
        }
        // A held write goes again (evicting or refusing) once holding no longer applies.
        if case .holding(let tickets) = writeStage, !holdsWhenFull { writeStage = .draining(tickets: tickets) }
        switch writeStage {
        case .draining(let tickets):
            writeStage = .writing(tickets: tickets)
            actions.append(.write(holdsWhenFull || rules.backpressure != .dropOldest ? .refuse : .evictOldest))
        case .idle where intakePending:
            intakePending = false
            settingsMayHaveChanged = false
            writeStage = .taking
            actions.append(.takeDrain)
        case .holding where settingsMayHaveChanged:
            // The held write keeps the intake's events there, but a pause or resume must not wait for room.
            settingsMayHaveChanged = false
            actions.append(.takeSettings)
        case .idle, .taking, .writing, .holding:
            break
        }
        if let snapshot = identity.start() { actions.append(.saveIdentity(snapshot)) }
        startPurge(&actions)
        pumpUploads(at: now, &actions)
        finishIfDone(&actions)
    }

    private mutating func pumpUploads(at now: Instant, _ actions: inout [PipelineAction]) {
        guard settings.enabled, !stopDeadlinePassed else { return }
        if gate.isOpen(at: now) {
            for index in work.indices where work[index].state == .ready {
                if work[index].retries > 0 { statistics.retriedRequests += 1 }
                work[index].state = .sending
                work[index].sentInGeneration = gate.generation
                actions.append(.send(work[index].id))
            }
            if var current = pass, current.needsListing, !listing, !current.kept {
                current.needsListing = false
                pass = current
                listing = true
                actions.append(.list(limit: rules.maxFilesPerFlush))
            }
            var busy = work.count(where: { $0.state != .queued })
            for index in work.indices where work[index].state == .queued && busy < rules.maxConcurrentUploads {
                work[index].state = .reading
                busy += 1
                actions.append(.read(work[index].id))
            }
            listAheadOfSlowRequests(&actions)
        } else {
            releaseFlushesBehindClosedGate(at: now, &actions)
        }
        guard var current = pass, !listing, !current.needsListing, work.isEmpty else { return }
        if current.exhaustive, !current.kept, current.listedFull {
            current.needsListing = true
            current.listedFull = false
            pass = current
            pumpUploads(at: now, &actions)
            return
        }
        let outcome = BinobanFlushResult(outcome: current.kept ? .keptForRetry : .completed)
        for waiter in current.waiters { actions.append(.resume(waiter, result(for: waiter, base: outcome))) }
        // A batch was kept: uploads cannot free room now, so flushes behind a held write end as kept too.
        if current.kept { resolveTicketsBehindHold(.keptForRetry, &actions) }
        // The follow-up, if any, becomes the running pass.
        passes = followUp.map { .running($0, followUp: nil) } ?? .none
        // The count rule holds for what is already stored too: a backlog of flushAt events or more keeps
        // uploading while uploads make progress, instead of waiting for the next trigger.
        if pass == nil, current.progressed, !current.kept, statistics.queuedEvents >= settings.flushAt {
            pass = Pass(exhaustive: false, waiters: [])
        }
        if pass != nil { pumpUploads(at: now, &actions) }
    }

    /// Ends the awaited flushes that wait for a gate held until later than ``PipelineRules/awaitedFlushGateLimit``
    /// from now (a long `Retry-After`, or a backoff above the limit): they resolve as kept for retry, and the
    /// passes go on without them, sending when the gate opens. Both holds only ever move later, but a final
    /// answer ends a backoff early, so the check is made each time the pump finds the gate closed.
    private mutating func releaseFlushesBehindClosedGate(at now: Instant, _ actions: inout [PipelineAction]) {
        guard let until = gate.until, now.duration(to: until) > rules.awaitedFlushGateLimit, waitsOnGate,
            case .running(var current, var followUp) = passes
        else { return }
        let base = BinobanFlushResult(outcome: .keptForRetry)
        for waiter in current.waiters + (followUp?.waiters ?? []) {
            actions.append(.resume(waiter, result(for: waiter, base: base)))
        }
        current.waiters = []
        followUp?.waiters = []
        passes = .running(current, followUp: followUp)
        // Flushes behind a held write wait for room that only an upload can free.
        resolveTicketsBehindHold(.keptForRetry, &actions)
    }

    /// When everything listed has been sent but some requests are still out and storage holds more, lists the
    /// next batches now instead of when the slowest request ends: a request that gets no answer is held until the
    /// transport's timeout (30 s by default), and the pass would list nothing meanwhile, leaving the other
    /// request slots idle (seen in a hostile-ingest trace). Batches already in the work are not listed twice.
    private mutating func listAheadOfSlowRequests(_ actions: inout [PipelineAction]) {
        guard var current = pass, !listing, !current.needsListing, !current.kept, current.listedFull,
            !current.listedOnlyKnown
        else { return }
        let sending = work.count(where: { $0.state == .sending })
        guard sending > 0, sending < rules.maxConcurrentUploads,
            !work.contains(where: { $0.state == .queued || $0.state == .reading || $0.state == .ready })
        else { return }
        current.listedFull = false
        pass = current
        listing = true
        actions.append(.list(limit: rules.maxFilesPerFlush))
    }

    private mutating func finishIfDone(_ actions: inout [PipelineAction]) {
        guard case .stopping(_, let deadlinePassed) = life else { return }
        let uploadsDone = passes == .none || deadlinePassed
        guard intakeClosed, !intakePending, writeStage == .idle, identity == .idle, !purges.isRunning,
            uploadsDone, work.isEmpty || deadlinePassed, !listing || deadlinePassed
        else { return }
        if let waiting = purges.abandon() { actions.append(.resumePurges(waiting, BinobanPurgeResult())) }
        life = .stopped
        intervalDeadline = nil
        summaryDeadline = nil
        gate.close()
        abandonPasses(.interrupted, &actions)
        actions.append(.finish)
    }

    /// Ends the running pass and its follow-up, resolving their waiters with `outcome`.
    private mutating func abandonPasses(_ outcome: BinobanFlushResult.Outcome, _ actions: inout [PipelineAction]) {
        let base = BinobanFlushResult(outcome: outcome)
        for waiter in (pass?.waiters ?? []) + (followUp?.waiters ?? []) {
            actions.append(.resume(waiter, result(for: waiter, base: base)))
        }
        passes = .none
    }
}
