/// The pipeline's own timers, kept as deadlines (never timer objects): the interval flush and the error reporter's
/// pending summaries. A part of ``PipelineMachine``, which adds the deadlines of its other parts (the backoff gate,
/// the shutdown) in ``PipelineMachine/nextDeadline``.
struct PipelineTimers<Instant: InstantProtocol>: Sendable, Equatable where Instant.Duration == Duration {
    /// When the interval flush is due; `nil` before the start, while paused and once stopping.
    private(set) var interval: Instant?
    /// When the error reporter's pending summaries are due.
    private(set) var summary: Instant?

    /// The interval flush is due one `period` from `now`.
    mutating func armInterval(at now: Instant, every period: Duration) {
        interval = now.advanced(by: period)
    }

    /// No interval flush (paused, or stopping).
    mutating func stopInterval() {
        interval = nil
    }

    /// Whether the interval flush is due at `now`; when it is, the next one is armed one `period` from `now`.
    mutating func takeIntervalDue(at now: Instant, every period: Duration) -> Bool {
        guard let due = interval, now >= due else { return false }
        interval = now.advanced(by: period)
        return true
    }

    /// The reporter holds summaries due at `at`. The earliest pending summary is already timed when one is: the
    /// reporter is asked again once it is delivered.
    mutating func summaryPending(at: Instant) {
        if summary == nil { summary = at }
    }

    /// Whether the summaries are due at `now`; when they are, the deadline is spent.
    mutating func takeSummaryDue(at now: Instant) -> Bool {
        guard let due = summary, now >= due else { return false }
        summary = nil
        return true
    }

    /// The pipeline stopped: no timer is due any more.
    mutating func stopAll() {
        interval = nil
        summary = nil
    }

    /// The earliest deadline among these timers (the summaries' only with `summaries`), `gate` and `shutdown`.
    /// Asked each time the loop parks: compared one by one, without the array a variadic list would allocate.
    func next(summaries: Bool, _ gate: Instant? = nil, _ shutdown: Instant? = nil) -> Instant? {
        Self.earlier(Self.earlier(gate, shutdown), Self.earlier(interval, summaries ? summary : nil))
    }

    private static func earlier(_ first: Instant?, _ second: Instant?) -> Instant? {
        guard let first else { return second }
        guard let second else { return first }
        return min(first, second)
    }
}
