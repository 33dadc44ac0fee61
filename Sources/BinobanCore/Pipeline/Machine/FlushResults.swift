/// What each awaited flush returns: the counts at the moment it was registered, so that its result says what was
/// uploaded and rejected while it waited, and the drops since the previous result (each drop is told once).
///
/// A part of ``PipelineMachine``: the machine registers a flush's waiter when it asks for the pass and takes its
/// result when it resumes the waiter.
struct FlushResults: Sendable, Equatable {
    /// Counts at the moment an awaited flush was registered.
    private struct Baseline: Sendable, Equatable {
        var uploadedBatches: Int
        var uploadedEvents: Int
        var rejectedBatches: Int
        var rejectedEvents: Int

        init(_ statistics: BinobanStatistics) {
            uploadedBatches = statistics.uploadedBatches
            uploadedEvents = statistics.uploadedEvents
            rejectedBatches = statistics.requests.rejected
            rejectedEvents = statistics.dropped.rejected
        }
    }

    private var baselines: [UInt64: Baseline] = [:]
    private var droppedAtLastResult = 0

    /// `waiter` awaits a flush from now.
    mutating func register(_ waiter: UInt64, at statistics: BinobanStatistics) {
        baselines[waiter] = Baseline(statistics)
    }

    /// The result of `waiter`'s flush, which ends now with `base`'s outcome: what was uploaded and rejected since
    /// it was registered (nothing, for a waiter never registered), and every event dropped since the previous
    /// result.
    mutating func result(
        for waiter: UInt64, base: BinobanFlushResult, at statistics: BinobanStatistics
    ) -> BinobanFlushResult {
        let start = baselines.removeValue(forKey: waiter) ?? Baseline(statistics)
        var result = base
        result.uploadedBatches = statistics.uploadedBatches - start.uploadedBatches
        result.uploadedEvents = statistics.uploadedEvents - start.uploadedEvents
        result.rejectedBatches = statistics.requests.rejected - start.rejectedBatches
        result.rejectedEvents = statistics.dropped.rejected - start.rejectedEvents
        result.droppedEvents = statistics.dropped.total - droppedAtLastResult
        droppedAtLastResult = statistics.dropped.total
        return result
    }
}
