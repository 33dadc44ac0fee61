/// The machine's word that a group of events finished (``PipelineAction/deliver(_:)``): the outcome, the count the
/// statistics took, and where the driver finds the events' message ids.
struct DeliveryNotice: Sendable, Equatable {
    /// Where the message ids are.
    enum Events: Sendable, Equatable {
        /// The events of the batch the driver holds (read for upload): their ids came with them from the write
        /// stage, or, for a batch this run did not store, are read back from its body.
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
        /// The events of batches the storage evicted before they were read: named by the ids that came with them
        /// from the write stage (none for a previous run's batch, which was never read).
        case evicted([BinobanBatchID])
        /// The events of batches a purge deleted, oldest first: named by the ids that came with them from the write
        /// stage, or by the ids `readBack` from a previous run's batches.
        case purged([BinobanBatchID], readBack: [BinobanBatchID: [String]])
        /// Events of the batch the driver holds that were left out of its request (older than `maxEventAge`),
        /// named by the read; they leave the batch's named events, so its own outcome does not name them again.
        case expired(BinobanBatchID, [String])
        /// Not known to the pipeline (see ``BinobanDelivery/messageIds``).
        case unnamed
    }

    var outcome: BinobanDeliveryOutcome
    var eventCount: Int
    var events: Events
}
