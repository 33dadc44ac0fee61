/// One measurement for a ``SDKCoreMetricsObserver``, shaped like swift-metrics: a label, dimensions and a counter
/// increment, a gauge value or a timer sample.
///
/// Labels are fixed names such as `binoban_events_dropped_total`; dimensions carry only fixed vocabularies
/// (`reason`, `outcome`, `code`), never an API key, a user id, traits, properties or text from web content.
public struct SDKCoreMetric: Sendable, Hashable {
    /// What was measured.
    public enum Value: Sendable, Hashable {
        /// A counter grew by this much (swift-metrics `Counter.increment(by:)`).
        case increment(Int)
        /// A gauge now reads this value (swift-metrics `Gauge.record(_:)`).
        case gauge(Double)
        /// A timer sample (swift-metrics `Timer.recordNanoseconds(_:)`).
        case duration(Duration)
    }

    /// The metric's name.
    public var label: String
    /// Fixed-vocabulary dimensions, such as `["reason": "storageEviction"]`.
    public var dimensions: [String: String]
    /// The measurement.
    public var value: Value

    /// Creates a measurement.
    public init(label: String, dimensions: [String: String] = [:], value: Value) {
        self.label = label
        self.dimensions = dimensions
        self.value = value
    }
}
