/// ``PipelineMachine``'s upload rules: answers, failures and retries, and issuing reads, sends and listings while
/// the backoff gate is open.
extension PipelineMachine {
    // MARK: Uploads

    /// A batch was read: it waits for the gate to be sent, unless its pass kept a batch meanwhile (the pass sends
    /// nothing more: it is kept unsent) or every event of it expired (nothing to send: it leaves storage).
    mutating func batchRead(
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
            dropExpired(id, &actions)
            settle(id, &actions)
        }
    }

    /// Counts the expired events of a batch that is done with, before its other events are reported, so the
    /// reports name each event once.
    mutating func dropExpired(_ id: BinobanBatchID, _ actions: inout [PipelineAction]) {
        guard let expired = work.first(where: { $0.id == id })?.expired, expired.count > 0 else { return }
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
        guard let index = work.firstIndex(where: { $0.id == id }) else { return }
        let item = work[index]
        leaveStorage(item)
        if item.evictedEvents != nil {
            // Already gone from storage (its eviction freed room, and was left to this outcome to count).
            endHold(&actions)
            _ = take(id)
            actions.append(.forget(id))
        } else {
            work[index].state = .removing
            actions.append(.remove(id))
        }
    }

    mutating func answered(
        _ id: BinobanBatchID, status: Int, retryAfter: Duration?, jitter: Double, at now: Instant,
        _ actions: inout [PipelineAction]
    ) {
        guard let item = work.first(where: { $0.id == id }) else { return }
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
        pass?.progressed = true
        settle(id, &actions)
    }

    mutating func failed(
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
            endHold(&actions)
            _ = take(id)
            deliver(.dropped(.storageEviction), evicted, .batch(id), &actions)
            actions.append(.forget(id))
            countEviction(evicted, batches: [(id, evicted)], count: 1, delivered: true, &actions)
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
    mutating func stopPass(_ actions: inout [PipelineAction]) {
        pass?.kept = true
        for item in work where item.state == .ready {
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
        work.removeAll { $0.state == .queued || $0.state == .ready }
    }

    /// Removes an item from the work, returning it.
    mutating func take(_ id: BinobanBatchID) -> UploadItem? {
        guard let index = work.firstIndex(where: { $0.id == id }) else { return nil }
        pass?.listedOnlyKnown = false
        return work.remove(at: index)
    }

    mutating func update(_ id: BinobanBatchID, _ change: (inout UploadItem) -> Void) {
        guard let index = work.firstIndex(where: { $0.id == id }) else { return }
        change(&work[index])
    }

    mutating func pumpUploads(at now: Instant, _ actions: inout [PipelineAction]) {
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
    mutating func releaseFlushesBehindClosedGate(at now: Instant, _ actions: inout [PipelineAction]) {
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
    mutating func listAheadOfSlowRequests(_ actions: inout [PipelineAction]) {
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
}
