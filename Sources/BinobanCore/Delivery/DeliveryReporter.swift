/// Turns the machine's ``DeliveryNotice``s into reports for the host's ``BinobanDeliveryObserver`` and outcomes for
/// the callers awaiting one event, naming the events from where the notice says they are.
///
/// The message ids of stored events come with them from the write stage (``PlacedRun``, from the storage's
/// placements), so a batch's events are named without reading its body again: all of them while an observer
/// listens, else only those a caller awaits. Each batch's entry goes when the batch leaves storage. Only a batch
/// this run did not store (a previous run's, or one a storage that reports no placements wrote) is read back for
/// its ids, and only for an observer (no caller can await a previous run's event) (Decision 0219).
struct DeliveryReporter {
    let observer: (any BinobanDeliveryObserver)?
    let waiters: EventOutcomeWaiters
    /// The message ids of the named events in each stored batch, in the order they were stored.
    private var idsByBatch: [BinobanBatchID: [String]] = [:]

    init(observer: (any BinobanDeliveryObserver)?, waiters: EventOutcomeWaiters) {
        self.observer = observer
        self.waiters = waiters
    }

    /// Notes where stored events went: every event while an observer listens, else the awaited ones.
    mutating func placed(_ runs: [PlacedRun]) {
        for run in runs {
            let ids = observer != nil ? run.messageIds : run.awaitedIds
            guard !ids.isEmpty else { continue }
            idsByBatch[run.batch, default: []].append(contentsOf: ids)
        }
    }

    /// Whether a purge reads `batch` back for its ids: an observer listens and this run did not name its events.
    var readsBack: @Sendable (BinobanBatchID) -> Bool {
        guard observer != nil else { return { _ in false } }
        let known = Set(idsByBatch.keys)
        return { !known.contains($0) }
    }

    /// Reports one notice; `held` are the batches the driver holds, `buffer` the write stage's.
    mutating func deliver(
        _ notice: DeliveryNotice, held: [BinobanBatchID: BinobanStoredBatch], buffer: WriteStageBuffer?
    ) {
        let ids: [String]
        switch notice.events {
        case .batch(let id):
            // A batch kept for retry stays stored: its events are named again when it finishes.
            if let named = notice.outcome.isFinal ? idsByBatch.removeValue(forKey: id) : idsByBatch[id] {
                ids = named
            } else if observer != nil, let batch = held[id] {
                // A batch this run did not store: its ids never passed through this process.
                ids = BatchMessageIDs.messageIds(in: batch.events)
            } else {
                ids = []
            }
        case .oversize: ids = buffer?.oversizeIDs ?? []
        case .refused: ids = buffer?.chunkIDs ?? []
        case .lost: ids = buffer?.lostIDs ?? []
        case .named(let named): ids = named
        case .overflowed: ids = buffer?.droppedOldestIDs ?? []
        case .evicted(let batches):
            ids = batches.flatMap { idsByBatch.removeValue(forKey: $0) ?? [] }
        case .purged(let batches, let readBack):
            ids = batches.flatMap { idsByBatch.removeValue(forKey: $0) ?? readBack[$0] ?? [] }
        case .expired(let batch, let expired):
            ids = expired
            if let named = idsByBatch[batch] {
                let gone = Set(expired)
                let left = named.filter { !gone.contains($0) }
                idsByBatch[batch] = left.isEmpty ? nil : left
            }
        case .unnamed: ids = []
        }
        observer?.deliveryFinished(
            BinobanDelivery(messageIds: ids, eventCount: notice.eventCount, outcome: notice.outcome))
        guard notice.outcome.isFinal else { return }
        waiters.resolve(ids, with: notice.outcome)
    }
}

/// Consecutive stored events that the storage put in one batch: their message ids, and those of them a caller
/// awaits.
struct PlacedRun: Sendable, Equatable {
    var batch: BinobanBatchID
    var messageIds: [String] = []
    var awaitedIds: [String] = []
}
