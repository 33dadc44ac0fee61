/// What each awaited flush returns: what was uploaded and rejected since the figures the host could read when it
/// asked for the flush, and the drops since the previous result (each drop is told once).
///
/// A part of ``PipelineMachine``: the machine registers a flush's baseline when the flush's ticket reaches it (the
/// figures published when the host asked, carried by the ticket), or, for a waiter without one, when it asks for the
/// pass; it takes the result when it resumes the waiter. The baseline is the host's, not the moment the machine sees
/// the ticket: an upload answered between the host's call and the drain that carries the ticket happened while the
/// flush waited, and its result counts it (Decision 0234).
struct FlushResults: Sendable, Equatable {
    /// The counts an awaited flush's result is measured from.
    struct Baseline: Sendable, Equatable {
        var uploadedBatches: Int
        var uploadedEvents: Int
        var rejectedBatches: Int
        var rejectedEvents: Int

        /// The figures published now (what ``Binoban/statistics`` reads): an awaited flush's ticket carries them.
        init(publishedIn statistics: LockedValue<BinobanStatistics>) {
            self.init(statistics.withLock { $0 })
        }

        init(_ statistics: BinobanStatistics) {
            uploadedBatches = statistics.uploadedBatches
            uploadedEvents = statistics.uploadedEvents
            rejectedBatches = statistics.requests.rejected
            rejectedEvents = statistics.dropped.rejected
        }
    }

    private var baselines: [UInt64: Baseline] = [:]
    private var droppedAtLastResult = 0

    /// `waiter`'s flush counts from `baseline` (its ticket's, taken when the host asked).
    mutating func register(_ waiter: UInt64, from baseline: Baseline) {
        baselines[waiter] = baseline
    }

    /// `waiter` awaits a flush from now, unless its ticket registered the host's baseline already.
    mutating func registerIfAbsent(_ waiter: UInt64, at statistics: BinobanStatistics) {
        if baselines[waiter] == nil { baselines[waiter] = Baseline(statistics) }
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
