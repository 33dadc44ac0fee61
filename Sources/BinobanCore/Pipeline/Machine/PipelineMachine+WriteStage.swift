/// ``PipelineMachine``'s write-stage rules: drains, appends and their reports, holds of a full storage, drops and
/// evictions, and the queued counts they change.
extension PipelineMachine {
    // MARK: Write stage

    mutating func apply(_ drain: PipelineDrain, at now: Instant, _ actions: inout [PipelineAction]) {
        if drain.awaitedEvents > 0 { perform(uploads.handle(.awaitedEventsDrained), &actions) }
        statistics.acceptedEvents += drain.acceptedEvents
        // Taken from the callers: held until stored or dropped.
        statistics.heldEvents += drain.eventCount
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
        // An awaited flush counts from the figures the host could read when it asked (Decision 0234).
        for ticket in drain.tickets {
            if let waiter = ticket.waiterID, let baseline = ticket.baseline {
                flushResults.register(waiter, from: baseline)
            }
        }
        let drained = WriteStageMachine.Input.drained(
            eventCount: drain.eventCount, tickets: drain.tickets, closed: drain.closed)
        perform(writes.handle(drained), &actions)
    }

    /// Applies a settings change taken from the intake (with a drain, or alone while a write is held).
    mutating func applySettings(
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
    mutating func endHold(_ actions: inout [PipelineAction]) {
        perform(writes.handle(.roomFreed), &actions)
    }

    /// Performs what the write stage asked for (``WriteStageMachine/Action``).
    mutating func perform(_ action: WriteStageMachine.Action?, _ actions: inout [PipelineAction]) {
        switch action {
        case nil:
            break
        case .takeDrain:
            actions.append(.takeDrain)
        case .takeSettings:
            actions.append(.takeSettings)
        case .write(let whenFull):
            actions.append(.write(whenFull))
        case .honour(let tickets):
            honour(tickets, &actions)
        case .serveHold:
            serveHold(&actions)
        case .release(let tickets, let outcome):
            // Their events stay in the write stage (written once room is freed); no upload can make room now.
            let base = BinobanFlushResult(outcome: outcome)
            for waiter in tickets.compactMap(\.waiterID) {
                actions.append(.resume(waiter, result(for: waiter, base: base)))
            }
        }
    }

    mutating func recordWrite(
        _ report: BinobanStorageWriteReport, storedBytes: Int, placedBytes: [Int], moreInDrain: Bool,
        _ actions: inout [PipelineAction]
    ) {
        let holding = report.refusedEvents > 0 && holdsWhenFull
        // `serveHold` when the refused suffix is held, else the drain's tickets once it is over: the first is
        // performed where the refusal is counted, the second after the count flush, as the flushes come last.
        let next = writes.handle(.written(moreInDrain: moreInDrain, holdingRefused: holding))
        statistics.storedEvents += report.storedEvents
        // A refused suffix that is held stays held; one that is not is dropped below.
        statistics.heldEvents -=
            report.storedEvents + report.rejectedOversizeEvents + (holding ? 0 : report.refusedEvents)
        dequeue(ledger.stored(report, bytes: storedBytes, placedBytes: placedBytes))
        drop(
            report.rejectedOversizeEvents, \.oversize, .oversizeEvent,
            "because each encoded to the event size limit or more", (.oversize, .oversize), &actions)
        recordEvictions(report, &actions)
        if holding {
            perform(next, &actions)
        } else if report.refusedEvents > 0 {
            refuse(report.refusedEvents, &actions)
        }
        countStored(report.storedEvents, &actions)
        if !holding { perform(next, &actions) }
    }

    /// The refused suffix is held until room may have been freed: makes sure a pass lists after this refusal, so
    /// the hold ends (room freed) or its flushes are told why not. The running pass may have listed before the
    /// storage filled (or its listing's close may evict the very batch that filled it), and once it ends nothing
    /// would free room, so the held events and every flush behind them would wait forever. Flushes behind the
    /// hold that no upload can serve now (paused, no transport) are resolved at once.
    mutating func serveHold(_ actions: inout [PipelineAction]) {
        if !uploads.listsLater { request(exhaustive: false, waiters: [], &actions) }
        if !settings.enabled {
            resolveTicketsBehindHold(.paused, &actions)
        } else if !rules.hasTransport {
            resolveTicketsBehindHold(.keptForRetry, &actions)
        }
    }

    /// Resolves the awaited flushes waiting for a held write with `outcome`: their events are kept in the write
    /// stage (written once room is freed) and no upload can make room now.
    mutating func resolveTicketsBehindHold(
        _ outcome: BinobanFlushResult.Outcome, _ actions: inout [PipelineAction]
    ) {
        perform(writes.handle(.releaseHeldTickets(outcome)), &actions)
    }

    /// Counts and drops the refused suffix of the current chunk.
    mutating func refuse(_ count: Int, _ actions: inout [PipelineAction]) {
        // Before the discard: the driver names the refused events from the suffix it is about to drop.
        deliver(.dropped(.storageFull), count, .refused, &actions)
        actions.append(.discardRefused)
        drop(count, \.storageFull, .storageFull, "because the storage is full", nil, &actions)
    }

    /// Counts `count` dropped events under `counter` and reports them, with their number, as `kind`.
    mutating func drop(
        _ count: Int, _ counter: WritableKeyPath<BinobanStatistics.Drops, Int>, _ kind: BinobanError.Kind,
        _ reason: String, _ delivery: (BinobanDropReason, DeliveryNotice.Events)?, _ actions: inout [PipelineAction]
    ) {
        guard count > 0 else { return }
        statistics.dropped[keyPath: counter] += count
        actions.append(.report(kind, "\(count) events were dropped \(reason)", eventCount: count))
        if let delivery { deliver(.dropped(delivery.0), count, delivery.1, &actions) }
    }

    /// Tells the delivery observer that `count` events finished with `outcome`, when one listens.
    func deliver(
        _ outcome: BinobanDeliveryOutcome, _ count: Int, _ events: DeliveryNotice.Events,
        _ actions: inout [PipelineAction]
    ) {
        guard namesEvents, count > 0 else { return }
        actions.append(.deliver(DeliveryNotice(outcome: outcome, eventCount: count, events: events)))
    }

    /// Events earlier runs left, which the storage found (at open, or when it took its directory over), join the
    /// queue (Docs/Decisions/0257).
    mutating func found(events: Int, bytes: Int, at now: Instant) {
        guard events > 0 else { return }
        statistics.recoveredEvents += events
        ledger.recovered(events: events, bytes: bytes)
        statistics.queuedEvents = ledger.queued.events
        statistics.queuedBytes = ledger.queued.bytes
        backlog.stored(events, at: now)
    }

    /// Stored events the storage lost (their files removed) count as storage failures; a lost batch being
    /// uploaded is counted only if it is not delivered, like an evicted one (Docs/Decisions/0256).
    mutating func recordLosses(_ report: BinobanStorageWriteReport, _ actions: inout [PipelineAction]) {
        var lost = 0
        var lostIDs: [BinobanBatchID] = []
        for (id, events) in report.lostBatchEvents.sorted(by: { $0.key < $1.key }) {
            // Being read or sent: counted only if it is not delivered.
            guard uploads.gone(id, events: events) else { continue }
            lost += events
            lostIDs.append(id)
        }
        guard lost > 0 else { return }
        statistics.dropped.storageFailure += lost
        deliver(.dropped(.storageFailure), lost, .evicted(lostIDs), &actions)
        for id in lostIDs { dequeue(ledger.left(id, events: report.lostBatchEvents[id] ?? 0)) }
        actions.append(
            .report(
                .storage, "\(lost) stored events were lost: their batch files were removed before they were uploaded",
                eventCount: lost))
    }

    /// Evicted batches that are being uploaded are counted only if they are not delivered.
    mutating func recordEvictions(_ report: BinobanStorageWriteReport, _ actions: inout [PipelineAction]) {
        recordLosses(report, &actions)
        guard report.evictedBatches > 0 else { return }
        var immediateEvents = report.evictedEvents
        var immediateBatches = report.evictedBatches
        var immediate: [(BinobanBatchID, Int)] = []
        for (id, events) in report.evictedBatchEvents.sorted(by: { $0.key < $1.key }) {
            if uploads.gone(id, events: events) {
                immediate.append((id, events))
            } else {
                immediateEvents -= events
                immediateBatches -= 1
            }
        }
        countEviction(immediateEvents, batches: immediate, count: immediateBatches, &actions)
    }

    /// Counts evicted events. `batches` are the evicted batches the storage named, with their events (the awaited
    /// events among them are known by batch; the rest of `events` were in batches it did not name), `count` how
    /// many batches there were; `delivered`: the observer was told already (from the evicted batch the driver held).
    mutating func countEviction(
        _ events: Int, batches: [(BinobanBatchID, Int)], count: Int, delivered: Bool = false,
        _ actions: inout [PipelineAction]
    ) {
        guard events > 0 || count > 0 else { return }
        statistics.dropped.storageEviction += events
        if !delivered { deliver(.dropped(.storageEviction), events, .evicted(batches.map(\.0)), &actions) }
        for (id, batchEvents) in batches { dequeue(ledger.left(id, events: batchEvents)) }
        let unnamed = events - batches.reduce(0) { $0 + $1.1 }
        if unnamed > 0 { dequeue(ledger.leftUnnamed(events: unnamed)) }
        actions.append(
            .report(
                .storageEviction,
                "\(count) stored batches (\(events) events) were dropped to respect the storage caps (oldest first)",
                eventCount: events))
    }

    /// Takes the queue depth from the ledger after this run's `share` of a batch (or of an append's events
    /// placed in a batch that had left) left storage.
    mutating func dequeue(_ share: QueueLedger.Share) {
        statistics.queuedEvents = ledger.queued.events
        statistics.queuedBytes = ledger.queued.bytes
        if statistics.queuedEvents == 0 { backlog.clear() } else { backlog.left(share.events) }
    }
}
