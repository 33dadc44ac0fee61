/// One measured quantity. A case runs one sample per call; the runner warms up, takes several samples and
/// reports the median. Add a case by conforming to this protocol and listing it in `main.swift`.
protocol BenchmarkCase: Sendable {
    /// A short name, printed in the report.
    var name: String { get }
    /// The unit of the value a sample returns, such as `calls/s`.
    var unit: String { get }
    /// Whether a higher value is better (for the target check).
    var higherIsBetter: Bool { get }
    /// The target, if the issue sets one.
    var target: Double? { get }
    /// Runs the workload once and returns the measured value.
    func sample() async -> Double
}

/// Seconds elapsed while `body` runs, on the continuous clock.
func measureSeconds(_ body: () async -> Void) async -> Double {
    let clock = ContinuousClock()
    let start = clock.now
    await body()
    let elapsed = start.duration(to: clock.now).components
    return Double(elapsed.seconds) + Double(elapsed.attoseconds) / 1e18
}
