/// ``PipelineMachine``'s upload rules: answers, failures and retries, and issuing reads, sends and listings while
/// the backoff gate is open.
extension PipelineMachine {
    // MARK: Uploads

    mutating func answered(
        _ id: BinobanBatchID, status: Int, retryAfter: Duration?, jitter: Double, at now: Instant,
        _ actions: inout [PipelineAction]
    ) {
        guard let index = work.firstIndex(where: { $0.id == id }) else { return }
        let item = work[index]
        switch Self.verdict(forStatus: status) {
        case .accepted:
            statistics.requests.accepted += 1
            gate.answeredFinally()
            statistics.uploadedBatches += 1
            statistics.uploadedEvents += item.eventCount
            deliver(.uploaded, item.eventCount, .batch(id), &actions)
            dequeue(ledger.left(id, events: item.eventCount))
        case .rejected:
            statistics.requests.rejected += 1
            gate.answeredFinally()
            statistics.dropped.rejected += item.eventCount
            deliver(.rejected(status: status), item.eventCount, .batch(id), &actions)
            dequeue(ledger.left(id, events: item.eventCount))
            actions.append(
                .report(
                    .batchRejected,
                    "the server rejected \(id) (\(item.eventCount) events) with status \(status); it was dropped",
                    eventCount: item.eventCount))
        case .transient:
            statistics.requests.transientFailures += 1
            failed(id, status: status, retryAfter: retryAfter, jitter: jitter, at: now, &actions)
            return
        }
        pass?.progressed = true
        if item.evictedEvents != nil {
            // Already gone from storage (its eviction freed room): nothing to delete.
            endHold()
            _ = take(id)
            actions.append(.forget(id))
        } else {
            work[index].state = .removing
            actions.append(.remove(id))
        }
    }

    mutating func failed(
        _ id: BinobanBatchID, status: Int?, retryAfter: Duration?, jitter: Double, at now: Instant,
        _ actions: inout [PipelineAction]
    ) {
        statistics.retryWaits += 1
        let sentIn = work.first { $0.id == id }?.sentInGeneration ?? gate.generation
        gate.failed(sentIn: sentIn, retryAfter: retryAfter, jitter: jitter, at: now, rules: rules)
        guard let index = work.firstIndex(where: { $0.id == id }) else { return }
        if let evicted = work[index].evictedEvents {
            endHold()
            _ = take(id)
            deliver(.dropped(.storageEviction), evicted, .batch(id), &actions)
            actions.append(.forget(id))
            countEviction(evicted, batches: [(id, evicted)], count: 1, delivered: true, &actions)
            return
        }
        work[index].retries += 1
        guard work[index].retries > rules.maxRetries else {
            work[index].state = .ready
            return
        }
        _ = take(id)
        actions.append(.forget(id))
        stopPass()
        let statusText = status.map { "status \($0)" } ?? "no answer"
        actions.append(
            .report(
                .uploadFailed,
                "\(id) still failed (\(statusText)) after \(rules.maxRetries) retries; it is kept for a later flush",
                eventCount: 0))
    }

    /// A kept or unreadable batch ends the pass: nothing more is sent (the rest would most likely fail too).
    mutating func stopPass() {
        pass?.kept = true
        work.removeAll { $0.state == .queued }
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
