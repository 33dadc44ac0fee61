/// The facade's view of a driver, independent of the driver's clock type.
protocol PipelineControl: Sendable {
    /// Opens storage, starts the writer and the flush timer. Idempotent.
    func start() async
    /// Flushes what it can until `deadline` elapses on the driver's clock, then stops for good; `posted` is called
    /// once the stop, the final flush and the intake's close are handed to the pipeline (a test kit on a manual
    /// clock moves time only after that, so that the deadline is measured from the instant it expects).
    func shutdown(deadline: Duration, posted: @escaping @Sendable () -> Void) async -> BinobanFlushResult
    /// Returns once the pipeline has nothing to do but wait for time to pass or a call to arrive: no write,
    /// listing, read, request or deletion in flight, nothing in the intake (but events behind a write held for
    /// room, which waits for time or a call too), no timer due. For test kits.
    func waitUntilQuiet() async
    /// Deletes the stored backlog (every finished batch and the open one, but batches being uploaded) and
    /// returns what it deleted, once deleted; `requested` is called once the purge is handed to the pipeline (a
    /// test kit goes on only then, so that each purge it starts runs on its own).
    func purgeBacklog(requested: @escaping @Sendable () -> Void) async -> BinobanPurgeResult
    /// How long from now until the pipeline's next timer (the machine's deadline or an error summary), if any.
    func timeUntilNextDeadline() async -> Duration?
}

extension PipelineControl {
    /// Deletes the stored backlog and returns what it deleted, once deleted.
    func purgeBacklog() async -> BinobanPurgeResult {
        await purgeBacklog(requested: {})
    }

    /// Flushes what it can until `deadline` elapses on the driver's clock, then stops for good.
    func shutdown(deadline: Duration) async -> BinobanFlushResult {
        await shutdown(deadline: deadline, posted: {})
    }
}
