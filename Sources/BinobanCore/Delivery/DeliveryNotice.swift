/// The machine's word that a group of events finished (``PipelineAction/deliver(_:)``): the outcome, the count the
/// statistics took, and where the driver finds the events' message ids.
struct DeliveryNotice: Sendable, Equatable {
    /// Where the message ids are.
    enum Events: Sendable, Equatable {
        /// In the body of the batch the driver holds (read for upload).
        case batch(BinobanBatchID)
        /// The events of the chunk just written that the storage refused as oversize.
        case oversize
        /// The suffix of the chunk a full storage refused (about to be discarded).
        case refused
        /// The events of the chunk the failed append lost.
        case lost
        /// Named by the input that brought them (events a stage dropped).
        case named([String])
        /// The oldest events of the drain just taken, which the intake dropped to keep its bound; the rest of the
        /// count (events refused as the newest) has no ids.
        case overflowed
        /// The events of batches the storage evicted before they were read: not named to the observer (the
        /// pipeline keeps no ids of stored events), but the awaited ones among them are known by batch.
        case evicted([BinobanBatchID])
        /// Not known to the pipeline (see ``BinobanDelivery/messageIds``).
        case unnamed
    }

    var outcome: BinobanDeliveryOutcome
    var eventCount: Int
    var events: Events
}
