extension PipelineMachine {
    /// Whether an upload's answer, were it to come now, may wait for the loop's next turn (at most one gathering
    /// window) instead of waking the loop at once: nothing would follow it but the batch's deletion and the figures
    /// (Docs/Decisions/0223).
    ///
    /// Not while anyone or anything waits on an answer: an awaited flush (the pass's or its follow-up's waiters),
    /// batches still to list, read or send (a backlog drains one round of requests per answer), a follow-up pass or
    /// one the count rule would start for what stays queued, named events (the delivery observer and the callers
    /// awaiting an event's outcome), a write held for room, a purge, and any phase but running (a shutdown).
    var answersMayWait: Bool {
        guard lifetime.isRunning, writes.isIdle, !purges.isRunning, !uploads.namesEvents, !uploads.listing,
            case .running(let current, followUp: nil) = uploads.passes, current.waiters.isEmpty,
            !current.exhaustive, !current.needsListing, !current.listedFull
        else { return false }
        var inFlight = 0
        for item in uploads.work {
            guard item.state == .sending else { return false }
            inFlight += item.eventCount
        }
        // What stays queued once the requests in flight are answered does not start another pass.
        return statistics.queuedEvents - inFlight < settings.flushAt
    }
}
