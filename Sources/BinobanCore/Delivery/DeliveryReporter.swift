/// Turns the machine's ``DeliveryNotice``s into reports for the host's ``BinobanDeliveryObserver``, naming the
/// events from where the notice says they are.
struct DeliveryReporter: Sendable {
    let observer: any BinobanDeliveryObserver

    /// Reports one notice; `held` are the batches the driver holds, `buffer` the write stage's.
    func deliver(
        _ notice: DeliveryNotice, held: [BinobanBatchID: BinobanStoredBatch], buffer: WriteStageBuffer?
    ) {
        let ids: [String]
        switch notice.events {
        case .batch(let id): ids = held[id].map { BatchMessageIDs.messageIds(in: $0.events) } ?? []
        case .oversize: ids = buffer?.oversizeIDs ?? []
        case .refused: ids = buffer?.chunkIDs ?? []
        case .lost: ids = buffer?.lostIDs ?? []
        case .named(let named): ids = named
        case .unnamed: ids = []
        }
        observer.deliveryFinished(
            BinobanDelivery(messageIds: ids, eventCount: notice.eventCount, outcome: notice.outcome))
    }
}
