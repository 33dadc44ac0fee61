/// ``PipelineMachine``'s upload rules: answers, failures and retries, and issuing reads, sends and listings while
/// the backoff gate is open.
extension PipelineMachine {
    // MARK: Uploads

    /// A batch was read: it waits for the gate to be sent, unless its pass kept a batch meanwhile (the pass sends
    /// nothing more: it is kept unsent) or every event of it expired (nothing to send: it leaves storage).
    mutating func batchRead(
        _ id: BinobanBatchID, eventCount: Int, bytes: Int, _ actions: inout [PipelineAction]
    ) {
        perform(uploads.handle(.read(id, eventCount: eventCount, bytes: bytes)), &actions)
    }

    /// Counts the expired events of a batch that is done with, before its other events are reported, so the
    /// reports name each event once.
    mutating func dropExpired(_ id: BinobanBatchID, _ actions: inout [PipelineAction]) {
        guard let expired = uploads.item(id)?.expired, expired.count > 0 else { return }
        drop(
            expired.count, \.expired, .expiredEvent, "because they were older than maxEventAge when read for upload",
            (.expired, .expired(id, expired.messageIds)), &actions)
    }

    /// Lowers the queue by the whole batch (its sent and its expired events) as it leaves storage.
    mutating func leaveStorage(_ item: UploadItem) {
        dequeue(ledger.left(item.id, events: item.eventCount + (item.expired?.count ?? 0)))
    }

    /// A batch is done with (answered for good, or every event expired): its events leave the queue, and it is
    /// deleted from storage, or let go when its eviction already deleted it.
    mutating func settle(_ id: BinobanBatchID, _ actions: inout [PipelineAction]) {
        perform(uploads.handle(.settle(id)), &actions)
    }

    mutating func answered(
        _ id: BinobanBatchID, status: Int, retryAfter: Duration?, jitter: Double, at now: Instant,
        _ actions: inout [PipelineAction]
    ) {
        guard let item = uploads.item(id) else { return }
        let verdict = Self.verdict(forStatus: status)
        if verdict != .transient { dropExpired(id, &actions) }
        switch verdict {
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
        settle(id, &actions)
    }

    mutating func failed(
        _ id: BinobanBatchID, _ failure: BinobanUploadFailure, retryAfter: Duration?, jitter: Double, at now: Instant,
        _ actions: inout [PipelineAction]
    ) {
        statistics.retryWaits += 1
        let item = uploads.item(id)
        // The batch's own next retry, or nil when this failure ends the pass (used up, or the pass already kept
        // a batch: the ingest counts as down, so the rest of the pass is kept without more attempts).
        // A failure no retry can mend (a plain-HTTP server answered the TLS hello) uses the batch's retries up at once.
        let hopeless = failure.retryCannotHelp
        let retry = item.map { $0.retries + 1 }.flatMap {
            $0 > rules.maxRetries || pass?.kept == true || hopeless ? nil : $0
        }
        let sentIn = item?.sentInGeneration ?? gate.generation
        gate.failed(sentIn: sentIn, retry: retry, retryAfter: retryAfter, jitter: jitter, at: now, rules: rules)
        perform(uploads.handle(.failed(id, failure, retrying: retry != nil)), &actions)
    }

    /// A failed batch left the work, kept in storage: with its retries used up (or no retry can help) its pass
    /// stops and the failure is reported; kept because its pass had already kept a batch, it only says why.
    mutating func kept(_ item: UploadItem, _ failure: BinobanUploadFailure, _ actions: inout [PipelineAction]) {
        let id = item.id
        let usedUp = item.retries > rules.maxRetries || failure.retryCannotHelp
        deliver(.keptForRetry(failure), item.eventCount, .batch(id), &actions)
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
            failure.retryCannotHelp
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
    mutating func stopPass(_ actions: inout [PipelineAction]) {
        perform(uploads.handle(.keepPass), &actions)
        while let action = uploads.handle(.release(.held)) { perform(action, &actions) }
    }

    /// A batch read and held for the gate leaves the work unsent, as its pass kept a batch.
    mutating func releaseHeld(_ item: UploadItem, _ actions: inout [PipelineAction]) {
        if let evicted = item.evictedEvents {
            // Evicted while it was held: its events are gone, and counted now that it will not be delivered.
            deliver(.dropped(.storageEviction), evicted, .batch(item.id), &actions)
            actions.append(.forget(item.id))
            countEviction(evicted, batches: [(item.id, evicted)], count: 1, delivered: true, &actions)
        } else {
            // A batch that failed before is told kept, with its last failure; one never sent just stays stored.
            if let failure = item.lastFailure {
                deliver(.keptForRetry(failure), item.eventCount, .batch(item.id), &actions)
            }
            actions.append(.forget(item.id))
        }
    }

    /// Issues reads, sends and listings while the gate is open, and ends passes that are done (a full exhaustive
    /// pass lists again; a follow-up or a pass for the backlog runs next).
    mutating func pumpUploads(at now: Instant, _ actions: inout [PipelineAction]) {
        guard settings.enabled, !stopDeadlinePassed else { return }
        while true {
            if gate.isOpen(at: now) {
                while let action = uploads.handle(.issue(generation: gate.generation)) { perform(action, &actions) }
            } else {
                releaseFlushesBehindClosedGate(at: now, &actions)
            }
            let ended = uploads.handle(.endPassIfDone(backlogDue: statistics.queuedEvents >= settings.flushAt))
            perform(ended, &actions)
            switch ended {
            case .listAgain?, .passEnded(_, _, next: true)?: continue
            default: return
            }
        }
    }

    /// Ends the awaited flushes that wait for a gate held until later than ``PipelineRules/awaitedFlushGateLimit``
    /// from now (a long `Retry-After`, or a backoff above the limit): they resolve as kept for retry, and the
    /// passes go on without them, sending when the gate opens. Both holds only ever move later, but a final
    /// answer ends a backoff early, so the check is made each time the pump finds the gate closed.
    mutating func releaseFlushesBehindClosedGate(at now: Instant, _ actions: inout [PipelineAction]) {
        guard let until = gate.until, now.duration(to: until) > rules.awaitedFlushGateLimit, waitsOnGate else { return }
        perform(uploads.handle(.releaseWaiters), &actions)
    }

    /// Performs what the upload work asked for (``UploadWorkMachine/Action``).
    mutating func perform(_ action: UploadWorkMachine.Action?, _ actions: inout [PipelineAction]) {
        switch action {
        case nil, .listAgain?:
            break
        case .nameEvents?:
            // Before this drain's events are encoded, so that the awaited ones are named from here on.
            actions.append(.nameEvents)
        case .send(let id, let retried)?:
            if retried { statistics.retriedRequests += 1 }
            actions.append(.send(id))
        case .list(let limit)?:
            actions.append(.list(limit: limit))
        case .read(let id)?:
            actions.append(.read(id))
        case .passEnded(let waiters, let kept, _)?:
            let outcome = BinobanFlushResult(outcome: kept ? .keptForRetry : .completed)
            for waiter in waiters { actions.append(.resume(waiter, result(for: waiter, base: outcome))) }
            // A batch was kept: uploads cannot free room now, so flushes behind a held write end as kept too.
            if kept { resolveTicketsBehindHold(.keptForRetry, &actions) }
        case .resume(let waiters, let outcome)?:
            let base = BinobanFlushResult(outcome: outcome)
            for waiter in waiters { actions.append(.resume(waiter, result(for: waiter, base: base))) }
        case .releaseWaiters(let waiters)?:
            let base = BinobanFlushResult(outcome: .keptForRetry)
            for waiter in waiters { actions.append(.resume(waiter, result(for: waiter, base: base))) }
            // Flushes behind a held write wait for room that only an upload can free.
            resolveTicketsBehindHold(.keptForRetry, &actions)
        case .stopPass?:
            stopPass(&actions)
        case .allExpired(let id)?:
            dropExpired(id, &actions)
            settle(id, &actions)
        case .remove(let item)?:
            leaveStorage(item)
            actions.append(.remove(item.id))
        case .forgetEvicted(let item)?:
            // Already gone from storage (its eviction freed room, and was left to this outcome to count).
            leaveStorage(item)
            endHold(&actions)
            actions.append(.forget(item.id))
        case .evictedInFlight(let item)?:
            let evicted = item.evictedEvents ?? 0
            endHold(&actions)
            deliver(.dropped(.storageEviction), evicted, .batch(item.id), &actions)
            actions.append(.forget(item.id))
            countEviction(evicted, batches: [(item.id, evicted)], count: 1, delivered: true, &actions)
        case .retry(let id, let failure)?:
            if case .noAnswer(let transportFailure) = failure {
                actions.append(
                    .reportNoAnswer("\(id) got no answer (\(transportFailure)); it will be retried", transportFailure))
            }
        case .kept(let item, let failure)?:
            kept(item, failure, &actions)
        case .vanishedEvicted(let id, let events)?:
            // Gone since it was listed: the write that evicted it counted its events, and freed room.
            countEviction(events, batches: [(id, events)], count: 1, &actions)
        case .released(let item, .held)?:
            releaseHeld(item, &actions)
        case .released(let item, .waiting)?, .released(let item, .unsettled)?:
            letGo(item, &actions)
        }
    }
}
