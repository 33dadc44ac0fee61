/// The facade's view of a driver, independent of the driver's clock type.
protocol PipelineControl: Sendable {
    /// Opens storage, starts the writer and the flush timer. Idempotent.
    func start() async
    /// Flushes what it can until `deadline` elapses on the driver's clock, then stops for good.
    func shutdown(deadline: Duration) async -> BinobanFlushResult
    /// Returns once the pipeline has nothing to do but wait for time to pass or a call to arrive: no write,
    /// listing, read, request or deletion in flight, nothing in the intake, no timer due. For test kits.
    func waitUntilQuiet() async
    /// Deletes the stored backlog (every finished batch and the open one, but batches being uploaded) and
    /// returns what it deleted, once deleted.
    func purgeBacklog() async -> BinobanPurgeResult
    /// How long from now until the pipeline's next timer (the machine's deadline or an error summary), if any.
    func timeUntilNextDeadline() async -> Duration?
}
