/// The fixed rules of one pipeline, from the validated configuration.
struct PipelineRules: Sendable, Equatable {
    /// At most this many batches are listed per flush.
    var maxFilesPerFlush: Int
    /// Retries of one batch after its first transient failure, per flush.
    var maxRetries: Int
    /// The backoff after consecutive transient failures.
    var backoff: BackoffSchedule
    /// The longest `Retry-After` honoured.
    var retryAfterLimit: Duration
    /// Requests in flight at once.
    var maxConcurrentUploads: Int
    /// What a full storage does with new events.
    var backpressure: BinobanBackpressure
    /// Whether a transport is configured (without one, batches are kept and `transportMissing` reported).
    var hasTransport: Bool
    /// Whether a delivery observer (or a caller awaiting an event) is told each group of events that finishes
    /// (``PipelineAction/deliver(_:)``); without one the machine asks for nothing of the kind.
    var reportsDeliveries = false
    /// How long an awaited flush waits for a closed upload gate: held longer, it ends as kept for retry.
    var awaitedFlushGateLimit: Duration = .seconds(60)
    /// ``Configuration/maxEventAge`` in whole milliseconds, or `nil` for no limit.
    var maxEventAgeMillis: Int64?
}
