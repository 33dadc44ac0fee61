/// Keeps a client's ``FalconStatistics`` and forwards each change to the host's `SDKCoreMetricsObserver`
/// (labels `falcon_…`, dimensions `outcome` and `code` only).
final class FalconMetrics: Sendable {
    /// What happened, as the client reports it.
    enum Occurrence: Sendable {
        case executionStarted
        case executionLoaded
        case executionFailed(FalconError)
        case executionEnded
        case diagnostic(FalconDiagnosticCode)
        case beaconSent
        case beaconFailed
        case beaconDropped
    }

    private let statistics = LockedValue(FalconStatistics())
    private let observer: (any SDKCoreMetricsObserver)?

    init(observer: (any SDKCoreMetricsObserver)?) {
        self.observer = observer
    }

    /// The counts so far.
    var snapshot: FalconStatistics { statistics.withLock { $0 } }

    /// Counts `occurrence` and tells the observer.
    func record(_ occurrence: Occurrence) {
        statistics.withLock { counts in
            switch occurrence {
            case .executionStarted: counts.executionsStarted += 1
            case .executionLoaded: counts.executionsLoaded += 1
            case .executionFailed(.initNotCalled): counts.executionsFailedInitNotCalled += 1
            case .executionFailed(.placementLoadError): counts.executionsFailedPlacementLoad += 1
            case .executionEnded: counts.executionsEnded += 1
            case .diagnostic(let code): counts.diagnostics[code, default: 0] += 1
            case .beaconSent: counts.beaconsSent += 1
            case .beaconFailed: counts.beaconsFailed += 1
            case .beaconDropped: counts.beaconsDropped += 1
            }
        }
        guard let observer else { return }
        let (label, dimensions) = Self.metric(for: occurrence)
        observer.record(SDKCoreMetric(label: label, dimensions: dimensions, value: .increment(1)))
    }

    /// The counter label and dimensions of an occurrence.
    static func metric(for occurrence: Occurrence) -> (String, [String: String]) {
        switch occurrence {
        case .executionStarted: ("falcon_executions_started_total", [:])
        case .executionLoaded: ("falcon_executions_total", ["outcome": "loaded"])
        case .executionFailed(.initNotCalled): ("falcon_executions_total", ["outcome": "initNotCalled"])
        case .executionFailed(.placementLoadError): ("falcon_executions_total", ["outcome": "placementLoadError"])
        case .executionEnded: ("falcon_executions_ended_total", [:])
        case .diagnostic(let code): ("falcon_diagnostics_total", ["code": code.rawValue])
        case .beaconSent: ("falcon_beacons_total", ["outcome": "sent"])
        case .beaconFailed: ("falcon_beacons_total", ["outcome": "failed"])
        case .beaconDropped: ("falcon_beacons_total", ["outcome": "dropped"])
        }
    }
}
