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
        /// Not known to the pipeline (see ``BinobanDelivery/messageIds``).
        case unnamed
    }

    var outcome: BinobanDeliveryOutcome
    var eventCount: Int
    var events: Events
}
