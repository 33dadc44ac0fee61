/// What became of one event a caller awaited (``BinobanServerEvents/awaitingDelivery``).
public enum BinobanEventOutcome: Sendable, Hashable {
    /// The event finished: uploaded, rejected by the ingest, or dropped by the SDK with the reason. The same
    /// outcome the ``BinobanDeliveryObserver`` reports for it, counted in ``Binoban/statistics`` the same way.
    case finished(BinobanDeliveryOutcome)
    /// The instance did not take the event: it was shut down, disabled by an invalid configuration, or shutting
    /// down when the call came. Nothing was counted.
    case notAccepted
    /// The instance shut down before the event finished: it stays in storage for a later run (the shutdown's
    /// grace period ended first, or uploads kept failing). With a host storage that does not report
    /// ``BinobanStorageWriteReport/placements``, an event that storage evicted before it was read ends here too.
    case unfinished
    /// The awaiting task was cancelled. The event itself goes on (it was accepted, or it is still waiting for room
    /// in the write stage and is then not accepted at all).
    case cancelled
}

extension BinobanEventOutcome: CustomStringConvertible {
    /// `finished: uploaded`, `finished: dropped (storageEviction)`, `notAccepted`, `unfinished` or `cancelled`.
    public var description: String {
        switch self {
        case .finished(let outcome): "finished: \(outcome)"
        case .notAccepted: "notAccepted"
        case .unfinished: "unfinished"
        case .cancelled: "cancelled"
        }
    }
}
