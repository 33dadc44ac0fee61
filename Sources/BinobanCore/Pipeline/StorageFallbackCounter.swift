/// Counts the times an instance keeps in memory what belongs in its storage directory (batches, identity
/// changes), for ``BinobanStatistics/storageFallbacks``, and publishes each one to the metrics observer as
/// `binoban_storage_fallbacks_total`.
final class StorageFallbackCounter: Sendable {
    private let value = LockedValue(0)
    private let observer: (any SDKCoreMetricsObserver)?

    /// A counter at zero that publishes to `observer`, if any.
    init(observer: (any SDKCoreMetricsObserver)?) {
        self.observer = observer
    }

    /// The fallbacks so far.
    var count: Int { value.withLock { $0 } }

    /// Counts one fallback.
    func add() {
        value.withLock { $0 += 1 }
        observer?.record(SDKCoreMetric(label: BinobanMetricsPublisher.Label.storageFallbacks, value: .increment(1)))
    }
}
