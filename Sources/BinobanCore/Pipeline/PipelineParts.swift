/// A storage just opened, and the events (and their body bytes) earlier runs left in it: the default storage
/// counts them as it opens its directory (Docs/Decisions/0257); a host's storage reports none.
struct OpenedStorage: Sendable {
    var storage: any BinobanEventStorage
    var foundEvents = 0
    var foundBytes = 0
    /// Whether the storage may be handed events that are slices of one shared `Data` (indices not from zero):
    /// only the SDK's own storages, which read each event through its own indices and copy what they keep. A
    /// host's storage gets a `Data` of its own for each event.
    var takesSlices = false
}

/// Everything a driver is made of, gathered by the factory.
struct PipelineParts: Sendable {
    var intake: EventIntake
    var waiters: FlushWaiters
    /// The callers awaiting one event's outcome (``BinobanServerEvents/awaitingDelivery``).
    var outcomeWaiters: EventOutcomeWaiters
    var reporter: ErrorReporter
    var configuration: Configuration
    var rules: PipelineRules
    var requestBuilder: UploadRequestBuilder
    var keyValueStore: (any BinobanKeyValueStore)?
    /// Opens the storage (blocking I/O: run on the pipeline loop's thread, which the default file storage then
    /// runs on too: the executor given), with what earlier runs left in it. The fallback is the factory's decision.
    var openStorage: @Sendable (any SerialExecutor) -> OpenedStorage
    var instanceId: String
    /// The statistics the facade reads, published after every step.
    var statistics: LockedValue<BinobanStatistics>
    /// When the oldest queued event was stored, as ``elapsed`` read then (published with the statistics).
    var oldestQueuedAt: LockedValue<Duration?>
    /// Time on the pipeline's clock since the instance was created.
    var elapsed: @Sendable () -> Duration
    /// Called once when the driver stops (releases the storage directory claim).
    var onStop: @Sendable () -> Void

    /// The instant before which stored events are expired (``Configuration/maxEventAge``), in milliseconds since
    /// 1970 on the wall clock, or `nil` without a limit.
    func expiryCutoffMillis() -> Int64? {
        rules.maxEventAgeMillis.map { configuration.wallClock.currentMillisecondsSince1970() - $0 }
    }

    /// The driver stopped: pending reports go out, the intake lets go of the driver, the directory is released.
    func stopped() {
        reporter.deliverPending()
        intake.removeOnWork()
        onStop()
    }
}
