/// What a client counts, and how each count reaches the host's `SDKCoreMetricsObserver` (labels `falcon_…`,
/// dimensions `outcome` and `code` only).
///
/// The counts themselves live in the client's state and change under the lock the driver already holds at the
/// transition (``FalconStatistics/count(_:)``), so an execute takes no lock of its own for them; the observer
/// is told outside every lock, when the action is performed.
struct FalconMetrics: Sendable {
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

    private let observer: (any SDKCoreMetricsObserver)?
    /// Tested before anything else: checking the optional existential itself copies it, at every action.
    private let isObserved: Bool

    init(observer: (any SDKCoreMetricsObserver)?) {
        self.observer = observer
        isObserved = observer != nil
    }

    /// The occurrence a machine action stands for, if it counts.
    static func occurrence(for action: FalconExecutionStateMachine.Action) -> Occurrence? {
        switch action {
        case .callback(.load): .executionLoaded
        case .callback(.error(let error)): .executionFailed(error)
        case .diagnose(let code, _): .diagnostic(code)
        case .finished: .executionEnded
        default: nil
        }
    }

    /// Tells the observer, if there is one, about the occurrence `action` stands for.
    func forward(_ action: FalconExecutionStateMachine.Action) {
        guard isObserved, let occurrence = Self.occurrence(for: action) else { return }
        forward(occurrence)
    }

    /// Tells the observer, if there is one.
    func forward(_ occurrence: Occurrence) {
        guard isObserved, let observer else { return }
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

extension FalconStatistics {
    /// Counts `occurrence`.
    mutating func count(_ occurrence: FalconMetrics.Occurrence) {
        switch occurrence {
        case .executionStarted: executionsStarted += 1
        case .executionLoaded: executionsLoaded += 1
        case .executionFailed(.initNotCalled): executionsFailedInitNotCalled += 1
        case .executionFailed(.placementLoadError): executionsFailedPlacementLoad += 1
        case .executionEnded: executionsEnded += 1
        case .diagnostic(let code): diagnostics[code, default: 0] += 1
        case .beaconSent: beaconsSent += 1
        case .beaconFailed: beaconsFailed += 1
        case .beaconDropped: beaconsDropped += 1
        }
    }

    /// Counts every occurrence among `actions` (one machine step's).
    mutating func count(_ actions: [FalconExecutionStateMachine.Action]) {
        for action in actions {
            if let occurrence = FalconMetrics.occurrence(for: action) { count(occurrence) }
        }
    }
}
