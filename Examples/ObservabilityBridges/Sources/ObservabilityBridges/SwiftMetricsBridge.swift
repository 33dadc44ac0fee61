import BinobanCore
import Metrics

/// Records SDK Core's metrics with swift-metrics' `Counter`, `Gauge` and `Timer`.
public struct SwiftMetricsBridge: SDKCoreMetricsObserver {
    /// Creates a bridge; metrics go to whatever `MetricsSystem` the process bootstrapped.
    public init() {}

    /// Records one measurement.
    public func record(_ metric: SDKCoreMetric) {
        let dimensions = metric.dimensions.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
        switch metric.value {
        case .increment(let amount):
            Counter(label: metric.label, dimensions: dimensions).increment(by: amount)
        case .gauge(let value):
            Gauge(label: metric.label, dimensions: dimensions).record(value)
        case .duration(let duration):
            let (seconds, attoseconds) = duration.components
            Metrics.Timer(label: metric.label, dimensions: dimensions)
                .recordNanoseconds(seconds * 1_000_000_000 + attoseconds / 1_000_000_000)
        }
    }
}
