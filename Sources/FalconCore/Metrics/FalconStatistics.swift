/// Cumulative counts of one ``FalconClient`` since it was created, readable at any time through
/// ``FalconClient/statistics``; the same figures reach the metrics observer of ``FalconClientDependencies``.
public struct FalconStatistics: Sendable, Hashable {
    /// `execute` calls (each one an execution, whatever became of it).
    public var executionsStarted = 0
    /// Executions whose placement loaded (`onLoad`).
    public var executionsLoaded = 0
    /// Executions that failed with `initNotCalled`.
    public var executionsFailedInitNotCalled = 0
    /// Executions that failed with `placementLoadError` (mapping, URL, presenter, navigation, HTTP, timeout).
    public var executionsFailedPlacementLoad = 0
    /// Executions that ended (loaded or not: settled, torn down, superseded, dismissed).
    public var executionsEnded = 0
    /// Diagnostics raised, by code.
    public var diagnostics: [FalconDiagnosticCode: Int] = [:]
    /// Beacons the transport took and answered.
    public var beaconsSent = 0
    /// Beacons whose transport threw (beacons are fire-and-forget and not retried).
    public var beaconsFailed = 0
    /// Beacons dropped because no beacon transport is installed.
    public var beaconsDropped = 0
}
