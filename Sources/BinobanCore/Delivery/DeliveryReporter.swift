/// Turns the machine's ``DeliveryNotice``s into reports for the host's ``BinobanDeliveryObserver`` and outcomes for
/// the callers awaiting one event, naming the events from where the notice says they are.
///
/// It also remembers which batch each awaited event was stored in (from the storage's placements), so that an
/// awaited event the storage evicts before it is read is known; the entries go when their batch finishes.
struct DeliveryReporter {
    let observer: (any BinobanDeliveryObserver)?
    let waiters: EventOutcomeWaiters
    /// The message ids of the awaited events in each stored batch.
    private var awaitedByBatch: [BinobanBatchID: [String]] = [:]

    init(observer: (any BinobanDeliveryObserver)?, waiters: EventOutcomeWaiters) {
        self.observer = observer
        self.waiters = waiters
    }

    /// Notes where awaited events were stored.
    mutating func placed(_ placements: [AwaitedPlacement]) {
        for placement in placements { awaitedByBatch[placement.batch, default: []].append(placement.messageId) }
    }

    /// Reports one notice; `held` are the batches the driver holds, `buffer` the write stage's.
    mutating func deliver(
        _ notice: DeliveryNotice, held: [BinobanBatchID: BinobanStoredBatch], buffer: WriteStageBuffer?
    ) {
        let ids: [String]
        var awaitedOnly: [String] = []
        switch notice.events {
        case .batch(let id):
            // A kept batch stays stored: its awaited events are still known by batch.
            if notice.outcome.isFinal { awaitedByBatch[id] = nil }
            let wanted = observer != nil || !waiters.isEmpty
            ids = wanted ? held[id].map { BatchMessageIDs.messageIds(in: $0.events) } ?? [] : []
        case .oversize: ids = buffer?.oversizeIDs ?? []
        case .refused: ids = buffer?.chunkIDs ?? []
        case .lost: ids = buffer?.lostIDs ?? []
        case .named(let named): ids = named
        case .overflowed: ids = buffer?.droppedOldestIDs ?? []
        case .evicted(let batches):
            ids = []
            awaitedOnly = batches.flatMap { awaitedByBatch.removeValue(forKey: $0) ?? [] }
        case .unnamed: ids = []
        }
        observer?.deliveryFinished(
            BinobanDelivery(messageIds: ids, eventCount: notice.eventCount, outcome: notice.outcome))
        guard notice.outcome.isFinal else { return }
        waiters.resolve(ids, with: notice.outcome)
        waiters.resolve(awaitedOnly, with: notice.outcome)
        if notice.outcome == .dropped(.purged) || notice.outcome == .dropped(.expired) {
            // A purge (or a batch whose events all expired) names its events but not their batches: forget the
            // batches whose awaited events are settled.
            awaitedByBatch = awaitedByBatch.filter { $0.value.contains(where: waiters.awaits) }
        }
    }
}

/// An awaited event and the batch the storage put it in.
struct AwaitedPlacement: Sendable, Equatable {
    var batch: BinobanBatchID
    var messageId: String
}
