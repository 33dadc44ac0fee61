extension Binoban {
    /// Returns once the pipeline has nothing to do but wait for time to pass or a call to arrive: no write,
    /// listing, read, request or deletion in flight, nothing waiting in the write stage but events held for room
    /// (``BinobanStatistics/heldEvents``: they wait for the backoff gate, the interval or a resume), no timer due. Lets a
    /// test kit on a manual clock step the pipeline deterministically. Returns at once for a disabled instance.
    package func waitUntilQuiet() async {
        await runtime?.driver.waitUntilQuiet()
    }

    /// How long from now until the pipeline's next timer fires, if one is armed; a test kit on a manual clock
    /// advances by exactly this much to step through the pipeline's deadlines.
    package func timeUntilNextDeadline() async -> Duration? {
        await runtime?.driver.timeUntilNextDeadline()
    }

    /// Observes the callers of `server.awaitingDelivery`: `admitted` once the intake has taken or refused a
    /// caller's event (so a test kit can go on once a call it started in a task has handed its event over), and
    /// `settled` with each caller's message id and outcome, synchronously at the pipeline step that settles it
    /// (the caller's task sees it later). One pair per instance; a test kit installs it before the first call.
    package func observeAwaitedCalls(
        admitted: @escaping @Sendable () -> Void, settled: @escaping @Sendable (String, BinobanEventOutcome) -> Void
    ) {
        runtime?.outcomeWaiters.observe(admitted: admitted, settled: settled)
    }

    /// An awaited flush whose result is handed to `onResult` synchronously, at the pipeline step that resolves
    /// it (a task awaiting `flush()` would see it later, after the manual clock may have moved on).
    package func flush(onResult: @escaping @Sendable (BinobanFlushResult) -> Void) {
        guard let runtime else {
            onResult(BinobanFlushResult(outcome: .paused))
            return
        }
        let id = runtime.waiters.makeID()
        runtime.waiters.observe(id: id, onResult)
        if !runtime.intake.requestFlush(waiterID: id, baseline: runtime.flushBaseline) {
            runtime.waiters.resume(id, with: BinobanFlushResult(outcome: .interrupted))
        }
    }

    /// ``shutdown(gracePeriod:)``, calling `posted` once the stop, the final flush and the intake's close are handed
    /// to the pipeline: a test kit on a manual clock moves time only after that, so the grace period is measured
    /// from the instant it expects, and steps the pipeline's deadlines while the shutdown drains.
    package func shutdown(gracePeriod: Duration, posted: @escaping @Sendable () -> Void) async -> BinobanFlushResult {
        guard let runtime else {
            posted()
            return BinobanFlushResult(outcome: .paused)
        }
        return await runtime.driver.shutdown(deadline: gracePeriod, posted: posted)
    }

    /// ``flushAndWait()``, calling `requested` once the flush is handed to the intake (or refused): a test kit that
    /// starts it in a task goes on only then, so the flush covers exactly the calls made before.
    package func flushAndWait(requested: @escaping @Sendable () -> Void) async -> BinobanFlushResult {
        guard let runtime else {
            requested()
            return BinobanFlushResult(outcome: .paused)
        }
        let id = runtime.waiters.makeID()
        let told = LockedValue(false)
        let result = await runtime.waiters.wait(id: id) {
            if !runtime.intake.requestFlush(waiterID: id, baseline: runtime.flushBaseline) {
                runtime.waiters.resume(id, with: BinobanFlushResult(outcome: .interrupted))
            }
            told.withLock { $0 = true }
            requested()
        }
        // A task cancelled before the wait registered requested nothing; its caller is told all the same.
        if !told.withLock({ $0 }) { requested() }
        return result
    }

    /// ``purgeBacklog()``, calling `requested` once the purge is handed to the pipeline: a test kit that starts it
    /// in a task goes on only then, so that each purge it starts runs on its own (callers waiting together share
    /// one purge, and each is told its result).
    package func purgeBacklog(requested: @escaping @Sendable () -> Void) async -> BinobanPurgeResult {
        guard let runtime else {
            requested()
            return BinobanPurgeResult()
        }
        return await runtime.driver.purgeBacklog(requested: requested)
    }
}
