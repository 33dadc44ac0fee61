/// What the pipeline tells the host as it runs, besides flush results: the statistics snapshot (with when the
/// oldest queued event was stored) that the facade reads, the metrics observer, the delivery observer and the
/// debug log. The driver hands each step's figures over; nothing here decides anything.
struct PipelineOutputs {
    private let statistics: LockedValue<BinobanStatistics>
    private let oldestQueuedAt: LockedValue<Duration?>
    private let elapsed: @Sendable () -> Duration
    private(set) var metrics: BinobanMetricsPublisher?
    /// Reports to the delivery observer and settles the callers awaiting one event.
    var deliveries: DeliveryReporter
    /// The lines written while `Binoban.debugLogsEnabled` is on: each flush's batches, each upload and answer.
    let debugLog: BinobanDebugLog

    init(parts: PipelineParts) {
        statistics = parts.statistics
        oldestQueuedAt = parts.oldestQueuedAt
        elapsed = parts.elapsed
        metrics = parts.configuration.metricsObserver.map(BinobanMetricsPublisher.init(observer:))
        deliveries = DeliveryReporter(observer: parts.configuration.deliveryObserver, waiters: parts.outcomeWaiters)
        debugLog = BinobanDebugLog(for: parts.configuration)
    }

    /// Publishes one step's statistics; `oldestAge` is how long ago the oldest queued event was stored.
    mutating func publish(_ snapshot: BinobanStatistics, oldestAge: Duration?) {
        statistics.withLock { $0 = snapshot }
        let storedAt = oldestAge.map { elapsed() - $0 }
        oldestQueuedAt.withLock { $0 = storedAt }
        metrics?.publish(snapshot)
    }
}
