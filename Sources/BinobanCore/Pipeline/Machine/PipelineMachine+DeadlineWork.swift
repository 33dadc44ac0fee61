/// ``PipelineMachine``'s rules for the upload work the shutdown deadline ends: every batch leaving the work is let
/// go by the driver, and one the storage evicted while it was read or sent is counted, since it will not be
/// delivered now.
extension PipelineMachine {
    /// The deadline passed: nothing more is read or sent, so the batches waiting to be (listed, or read and held
    /// for the backoff gate) leave the work. Requests and reads in flight stay until they answer or the machine
    /// finishes (``letGoOfUnsettledWork(_:)``).
    mutating func letGoOfWaitingWork(_ actions: inout [PipelineAction]) {
        while let action = uploads.handle(.release(.waiting)) { perform(action, &actions) }
    }

    /// The machine finishes past the deadline: no answer will be heard for what is still in the work. A batch
    /// being deleted was settled already; any other is let go, and counted when its eviction was waiting on it.
    mutating func letGoOfUnsettledWork(_ actions: inout [PipelineAction]) {
        while let action = uploads.handle(.release(.unsettled)) { perform(action, &actions) }
    }

    /// Lets the driver go of `item`, which leaves the work unsent (or unanswered): evicted while in flight, its
    /// events are counted as evicted now; a batch a request failed for is told kept, with its last failure, and
    /// one never sent just stays stored.
    mutating func letGo(_ item: UploadItem, _ actions: inout [PipelineAction]) {
        let held = item.state == .ready || item.state == .sending
        if let evicted = item.evictedEvents {
            // Named from the batch the driver holds, before it lets go of it; a batch still being read is named
            // from where its events were placed.
            if held { deliver(.dropped(.storageEviction), evicted, .batch(item.id), &actions) }
            actions.append(.forget(item.id))
            countEviction(evicted, batches: [(item.id, evicted)], count: 1, delivered: held, &actions)
            return
        }
        if held, let failure = item.lastFailure {
            deliver(.keptForRetry(failure), item.eventCount, .batch(item.id), &actions)
        }
        actions.append(.forget(item.id))
    }
}
