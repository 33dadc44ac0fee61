/// ``PipelineMachine``'s purge of the stored backlog: what a purge spares and what it counts (``PurgeMachine``
/// holds who asked and whether one runs).
extension PipelineMachine {
    // MARK: Purging the backlog

    /// Starts the purge asked for, unless one runs.
    mutating func startPurge(_ actions: inout [PipelineAction]) {
        perform(purges.handle(.pump), &actions)
    }

    /// Performs what the purges asked for (``PurgeMachine/Action``).
    mutating func perform(_ action: PurgeMachine.Action?, _ actions: inout [PipelineAction]) {
        switch action {
        case nil:
            break
        case .purge:
            // Batches being read, sent or deleted stay (their outcome is on its way); batches only listed leave
            // the work, as the purge deletes them.
            perform(uploads.handle(.dropListed), &actions)
            actions.append(.purge(excluding: Set(uploads.work.map(\.id)), namesEvents: uploads.namesEvents))
        case .resume(let waiters, let result):
            actions.append(.resumePurges(waiters, result))
        }
    }

    mutating func purged(_ report: PurgeReport, _ actions: inout [PipelineAction]) {
        recordEvictions(report.closed, &actions)
        statistics.dropped.purged += report.events
        deliver(
            .dropped(.purged), report.events,
            .purged(report.removed.keys.sorted(), readBack: report.readBackIds), &actions)
        for (id, events) in report.removed { dequeue(ledger.left(id, events: events)) }
        // Room was freed: a held write goes again.
        if report.batches > 0 || report.closed.evictedBatches > 0 { endHold(&actions) }
        if let failure = report.failure {
            actions.append(.report(.storage, "the backlog could not be purged in full: \(failure)", eventCount: 0))
        }
        let result = BinobanPurgeResult(purgedEvents: report.events, purgedBatches: report.batches)
        perform(purges.handle(.purged(result)), &actions)
    }
}
