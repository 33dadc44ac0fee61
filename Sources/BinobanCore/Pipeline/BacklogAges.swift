/// When the events the statistics count as queued were stored, oldest first, as runs of events stored at one
/// instant: the oldest queued event's age is read from the first run.
///
/// Events leave from the oldest run (storage uploads oldest first, a few batches at once), so the age is that of
/// the oldest event still counted. At most ``maxRuns`` runs are kept: past that, new events join the newest run,
/// whose instant is older than theirs, so an age is then over-stated, never under-stated.
struct BacklogAges<Instant: InstantProtocol>: Sendable, Equatable {
    private struct Run: Sendable, Equatable {
        var at: Instant
        var events: Int
    }

    static var maxRuns: Int { 4_096 }

    private var runs: [Run] = []
    private var head = 0

    /// When the oldest queued event was stored.
    var oldest: Instant? { head < runs.count ? runs[head].at : nil }

    mutating func stored(_ events: Int, at now: Instant) {
        guard events > 0 else { return }
        if let last = runs.indices.last, last >= head, runs[last].at == now || runs.count - head >= Self.maxRuns {
            runs[last].events += events
        } else {
            runs.append(Run(at: now, events: events))
        }
    }

    /// `events` left storage (uploaded, rejected, evicted, purged): taken from the oldest runs.
    mutating func left(_ events: Int) {
        var remaining = events
        while remaining > 0, head < runs.count {
            let taken = min(remaining, runs[head].events)
            runs[head].events -= taken
            remaining -= taken
            if runs[head].events == 0 { head += 1 }
        }
        if head == runs.count {
            runs.removeAll(keepingCapacity: true)
            head = 0
        } else if head >= 1_024, head * 2 >= runs.count {
            runs.removeFirst(head)
            head = 0
        }
    }

    /// Nothing is queued any more.
    mutating func clear() {
        runs.removeAll(keepingCapacity: true)
        head = 0
    }
}
