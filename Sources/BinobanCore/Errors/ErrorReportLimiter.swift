/// The pure rate limit for error reports: at most one delivery per kind per window, and no count lost.
///
/// The first report of a kind opens a window and is delivered. A report of the same kind inside the window is
/// suppressed: the limiter adds `1` and its ``BinobanError/eventCount`` to the kind's pending totals. When the
/// window ends (``nextDeadline``), ``handleDeadline(at:)`` turns each kind's pending totals into one summary
/// report and opens a new window for that kind; at shutdown ``drainPending()`` returns every summary still
/// pending. A report that arrives after its kind's window ended but before the deadline was handled is delivered
/// with the pending totals folded into it.
///
/// So for any sequence, the event counts of the delivered reports, the summaries and the drained summaries add up
/// to the event counts of every report admitted (the invariant `ErrorReportLimiterTests` checks).
///
/// Time comes in as an elapsed `Duration` since an arbitrary origin, so the machine reads no clock.
struct ErrorReportLimiter: Sendable {
    /// What the limiter remembers about one kind.
    private struct KindState: Sendable {
        /// When the kind's current window opened.
        var windowStart: Duration
        /// Reports suppressed in the current window, not yet summarised.
        var pendingReports = 0
        /// The sum of the suppressed reports' event counts.
        var pendingEvents = 0
        /// The message of the last suppressed report, repeated in the summary.
        var lastMessage = ""
        var lastTransportFailure: BinobanTransportFailure?
    }

    /// The window within which a second report of the same kind is suppressed.
    let window: Duration
    private var kinds: [String: (kind: BinobanError.Kind, state: KindState)] = [:]

    init(window: Duration = .seconds(10)) {
        self.window = window
    }

    /// Delivers `error` when no report of its kind went out within the window, otherwise suppresses it and keeps
    /// its counts for the kind's summary.
    mutating func admit(_ error: BinobanError, at now: Duration) -> BinobanError? {
        let key = error.kind.name
        guard var state = kinds[key]?.state, now - state.windowStart < window else {
            // A new window. Totals pending from a window whose deadline was not handled yet travel with this one.
            var delivered = error
            if let previous = kinds[key]?.state {
                delivered.eventCount += previous.pendingEvents
                delivered.suppressedCount += previous.pendingReports
            }
            kinds[key] = (error.kind, KindState(windowStart: now))
            return delivered
        }
        state.pendingReports += 1
        state.pendingEvents += error.eventCount
        state.lastMessage = error.message
        state.lastTransportFailure = error.transportFailure
        kinds[key] = (error.kind, state)
        return nil
    }

    /// The earliest end of a window that holds suppressed reports, or `nil` when nothing is pending. The pipeline
    /// loop asks at the end of every turn: a plain walk, which allocates nothing (the lazy chain's closures did).
    var nextDeadline: Duration? {
        var earliest: Duration?
        for (_, entry) in kinds where entry.state.pendingReports > 0 {
            let end = entry.state.windowStart + window
            if earliest.map({ end < $0 }) ?? true { earliest = end }
        }
        return earliest
    }

    /// One summary per kind whose window holding suppressed reports has ended by `now`; each such kind starts a
    /// new window at `now`, so the summary counts as that window's delivery. Sorted by kind name.
    mutating func handleDeadline(at now: Duration) -> [BinobanError] {
        var summaries: [BinobanError] = []
        for (key, entry) in kinds where entry.state.pendingReports > 0 && now - entry.state.windowStart >= window {
            summaries.append(summary(of: entry.kind, entry.state))
            kinds[key] = (entry.kind, KindState(windowStart: now))
        }
        return summaries.sorted { $0.kind.name < $1.kind.name }
    }

    /// Every pending summary, whether its window has ended or not (for shutdown). Sorted by kind name.
    mutating func drainPending() -> [BinobanError] {
        var summaries: [BinobanError] = []
        for (key, entry) in kinds where entry.state.pendingReports > 0 {
            summaries.append(summary(of: entry.kind, entry.state))
            kinds[key] = (entry.kind, KindState(windowStart: entry.state.windowStart))
        }
        return summaries.sorted { $0.kind.name < $1.kind.name }
    }

    private func summary(of kind: BinobanError.Kind, _ state: KindState) -> BinobanError {
        let reports = state.pendingReports == 1 ? "1 report" : "\(state.pendingReports) reports"
        return BinobanError(
            kind: kind,
            message: "\(reports) of this kind suppressed by the rate limit, summarised; the last: \(state.lastMessage)",
            eventCount: state.pendingEvents,
            suppressedCount: state.pendingReports,
            transportFailure: state.lastTransportFailure
        )
    }
}
