/// Receives the package's metrics as they change: counters, gauges and timer samples (see ``SDKCoreMetric``).
///
/// Each core also keeps a snapshot of the same figures that a host can read at any time
/// (`Binoban.statistics`, `FalconClient.statistics`). A swift-metrics bridge is a few lines:
///
/// ```swift
/// struct SwiftMetricsBridge: SDKCoreMetricsObserver {
///     func record(_ metric: SDKCoreMetric) {
///         let dimensions = metric.dimensions.sorted { $0.key < $1.key }.map { ($0.key, $0.value) }
///         switch metric.value {
///         case .increment(let amount): Counter(label: metric.label, dimensions: dimensions).increment(by: amount)
///         case .gauge(let value): Gauge(label: metric.label, dimensions: dimensions).record(value)
///         case .duration(let duration):
///             Metrics.Timer(label: metric.label, dimensions: dimensions).recordNanoseconds(
///                 duration.components.seconds * 1_000_000_000 + duration.components.attoseconds / 1_000_000_000)
///         }
///     }
/// }
/// ```
public protocol SDKCoreMetricsObserver: Sendable {
    /// Records one measurement. Called on the SDK's tasks and threads, outside its locks; must not block.
    func record(_ metric: SDKCoreMetric)
}
