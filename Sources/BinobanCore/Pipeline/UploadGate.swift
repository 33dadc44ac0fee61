/// When upload requests may start: the backoff after transient failures, and a server's `Retry-After`.
///
/// Rules:
/// - A transient failure of a request sent in the current generation grows the streak (at most 64) and opens a
///   new generation; a request sent in an older generation does not grow it, so concurrent requests failing
///   together count as one failure, not four.
/// - A transient failure of a batch that its pass retries holds requests for at least `jitter × ceiling(n)`
///   from now, `n` being that batch's retry (1 for its first): each batch follows the documented schedule of its
///   own, whatever other batches or earlier passes failed. A failure that ends its pass (the batch is kept)
///   holds them for `jitter × ceiling(streak)`: the wait before the next pass grows across passes during an
///   outage (up to the schedule's maximum). Either way the later of that and the backoff already running wins.
/// - A final answer (2xx, or a 4xx other than 429) ends the streak and the backoff at once: the ingest has just
///   shown it works, and a long jitter drawn after a streak of failures would otherwise hold every request
///   (seen: 27 s without a request after a 200, in a 30 % 500 mix).
/// - A `Retry-After` above zero holds requests until now plus it (capped at the rules' limit, the later of two
///   windows winning). It is an instruction: a final answer does not end it.
/// - Once an instant passes, its hold ends; the streak stands until a final answer.
///
/// Both holds may run at once, so the gate keeps the backoff as a small state and the server's window beside
/// it; ``until`` is the later of the two.
struct UploadGate<Instant: InstantProtocol>: Sendable, Equatable where Instant.Duration == Duration {
    /// Transient failures since the last final answer.
    enum Backoff: Sendable, Equatable {
        /// Nothing failed since the last final answer (or nothing was answered yet).
        case healthy
        /// `streak` transient failures since the last final answer; no request starts before `until`.
        case backingOff(until: Instant, streak: Int)
        /// The backoff passed, the failures stand: the next failure grows `streak`, and a full storage evicts
        /// instead of waiting for uploads to free room.
        case failing(streak: Int)
    }

    private(set) var backoff: Backoff = .healthy
    /// The end of a server's `Retry-After` window.
    private(set) var serverAsked: Instant?
    /// Grows each time the streak grows; a request records the generation it was sent in.
    private(set) var generation = 0

    /// No request starts before this instant, if any.
    var until: Instant? {
        switch (backoffUntil, serverAsked) {
        case (let backoff?, let server?): return max(backoff, server)
        case (let backoff, let server): return backoff ?? server
        }
    }

    /// Transient failures since the last final answer.
    var streak: Int {
        switch backoff {
        case .healthy: return 0
        case .backingOff(_, let streak), .failing(let streak): return streak
        }
    }

    /// A transient failure happened since the last final answer (or nothing was answered yet and the last
    /// attempt failed).
    var isFailing: Bool { backoff != .healthy }

    private var backoffUntil: Instant? {
        if case .backingOff(let until, _) = backoff { return until }
        return nil
    }

    /// A final answer: the streak and the backoff end (a `Retry-After` window does not).
    mutating func answeredFinally() {
        backoff = .healthy
    }

    /// A transient failure (or no answer) of a request sent in generation `sentIn`. `retry` is the batch's next
    /// retry in its pass (1 for the first), or `nil` when the failure ends the pass and the batch is kept.
    mutating func failed(
        sentIn: Int, retry: Int?, retryAfter: Duration?, jitter: Double, at now: Instant, rules: PipelineRules
    ) {
        var streak = self.streak
        if sentIn == generation {
            streak = min(streak + 1, 64)
            generation += 1
        }
        let delay = rules.backoff.delayMillis(forRetry: retry ?? streak, jitter: jitter)
        var until = now.advanced(by: .milliseconds(delay))
        if let running = backoffUntil { until = max(running, until) }
        backoff = .backingOff(until: until, streak: streak)
        if let retryAfter, retryAfter > .zero {
            let asked = now.advanced(by: min(retryAfter, rules.retryAfterLimit))
            serverAsked = max(serverAsked ?? asked, asked)
        }
    }

    /// Ends the holds whose instant has come.
    mutating func passTime(to now: Instant) {
        if case .backingOff(let until, let streak) = backoff, now >= until { backoff = .failing(streak: streak) }
        if let asked = serverAsked, now >= asked { serverAsked = nil }
    }

    /// Whether requests may start at `now` (ending the holds that passed).
    mutating func isOpen(at now: Instant) -> Bool {
        passTime(to: now)
        return until == nil
    }

    /// The shutdown finished: nothing will be sent again.
    mutating func close() {
        if case .backingOff(_, let streak) = backoff { backoff = .failing(streak: streak) }
        serverAsked = nil
    }
}
