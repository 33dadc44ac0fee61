/// Sums what a ``SDKCoreMetricsObserver`` receives, for tests and debug screens: counter totals, the last
/// value of each gauge and the timer samples, keyed by label and dimensions.
///
/// ```swift
/// let metrics = InMemoryMetricsObserver()
/// metrics.record(SDKCoreMetric(label: "requests_total", dimensions: ["outcome": "accepted"], value: .increment(2)))
/// assert(metrics.counter("requests_total", ["outcome": "accepted"]) == 2)
/// ```
public final class InMemoryMetricsObserver: SDKCoreMetricsObserver {
    /// A label with its dimensions.
    public struct Key: Sendable, Hashable {
        /// The metric's label.
        public var label: String
        /// Its dimensions.
        public var dimensions: [String: String]
    }

    private struct State: Sendable {
        var counters: [Key: Int] = [:]
        var gauges: [Key: Double] = [:]
        var timerSamples: [Key: [Duration]] = [:]
        var timerSampleCount = 0
    }

    private let state = LockedValue(State())
    /// The most timer samples kept in all (later ones are counted in ``timerSampleCount`` only).
    public static let timerSampleLimit = 100_000

    /// Creates an empty observer.
    public init() {}

    /// Adds up a counter, keeps a gauge's value, keeps a timer sample.
    public func record(_ metric: SDKCoreMetric) {
        let key = Key(label: metric.label, dimensions: metric.dimensions)
        state.withLock { state in
            switch metric.value {
            case .increment(let amount): state.counters[key, default: 0] += amount
            case .gauge(let value): state.gauges[key] = value
            case .duration(let duration):
                state.timerSampleCount += 1
                if state.timerSampleCount <= Self.timerSampleLimit {
                    state.timerSamples[key, default: []].append(duration)
                }
            }
        }
    }

    /// A counter's total (0 when never incremented).
    public func counter(_ label: String, _ dimensions: [String: String] = [:]) -> Int {
        state.withLock { $0.counters[Key(label: label, dimensions: dimensions)] ?? 0 }
    }

    /// The sum of a counter over every set of dimensions.
    public func counterTotal(_ label: String) -> Int {
        state.withLock { $0.counters.filter { $0.key.label == label }.values.reduce(0, +) }
    }

    /// A gauge's last value, `nil` when never recorded.
    public func gauge(_ label: String, _ dimensions: [String: String] = [:]) -> Double? {
        state.withLock { $0.gauges[Key(label: label, dimensions: dimensions)] }
    }

    /// A timer's samples, oldest first.
    public func timer(_ label: String, _ dimensions: [String: String] = [:]) -> [Duration] {
        state.withLock { $0.timerSamples[Key(label: label, dimensions: dimensions)] ?? [] }
    }

    /// Every timer sample received, kept or not.
    public var timerSampleCount: Int { state.withLock { $0.timerSampleCount } }

    /// Every key seen, of any kind.
    public var keys: Set<Key> {
        state.withLock { Set($0.counters.keys).union($0.gauges.keys).union($0.timerSamples.keys) }
    }
}
