/// When the pipeline loop lets events gather before it takes them, so that it wakes less often than once per event
/// when they come one at a time (Docs/Decisions/0230).
///
/// A thread wake-up costs more CPU than all the work an event needs, so the loop wakes once per group of events
/// that came within one ``window``, in one of two ways, each with its own questions:
/// - **where the thread delays signals** (Linux: ``LoopThread/delaysSignals``, a timer any thread can arm): every
///   park is an idle park with the window as its signal delay. The first event after a drain arms the loop's timer
///   one window ahead, later ones do nothing, and the loop wakes once, takes the group and parks again. One wake-up
///   per group, none without events. The loop asks ``parkDelaysSignals()`` and parks in plain nanoseconds.
/// - **elsewhere** (a condition variable, which only a wake-up can end early: Apple platforms, and Linux should the
///   timer not be created): the loop parks **idle** until its next deadline; woken by the intake alone, it
///   **gathers**: it parks one window with signals held (callers make no system call meanwhile), then takes
///   everything that came; while windows find events it keeps gathering, one window after the other; the first
///   window that finds none returns it to idle. The loop asks ``park(now:deadline:)`` and
///   ``wokeFromIdle(now:deadline:byIntakeAlone:)`` for plans in clock instants.
///
/// After a drain of at least ``burstDrain`` events (a burst) the loop does not gather: the next event wakes it at
/// once, as the write stage needs it. Either way an event waits at most one window (plus the turn) before it is written, a park never outlasts the
/// loop's deadline, and a ``LoopThread/wake()`` (a shutdown, a purge, a control call) ends it at once. Only the
/// real clocks gather: on a test's manual clock the loop takes every signal at once.
struct LoopGathering: Equatable {
    /// How the loop parks next, where the thread does not delay signals.
    struct Park: Equatable {
        /// The park's end, if it has one.
        var until: ContinuousClock.Instant?
        /// Whether the intake's signals wait for `until`.
        var holdsSignals: Bool
    }

    enum Phase: Equatable {
        case idle
        case gathering
    }

    /// How long a gathering park lasts: the longest an event waits before the loop takes it.
    static let defaultWindow: Duration = .milliseconds(5)

    /// From this many events in one drain the loop does not gather before its next turn: events come faster than
    /// 12 800 a second (64 per 5 ms window), a wake-up costs less than 1/64 of one per event, and a pause before
    /// the next turn would only let the write stage fill.
    static let burstDrain = 64

    let window: Duration
    /// The loop's thread delays signals itself (``LoopThread/delaysSignals``).
    let delaysSignals: Bool
    private(set) var phase = Phase.idle
    /// The loop took the intake's work since it last parked.
    private var tookEvents = false
    /// The last drain held at least ``burstDrain`` events.
    private(set) var inBurst = false

    init(window: Duration = Self.defaultWindow, delaysSignals: Bool) {
        self.window = window
        self.delaysSignals = delaysSignals
    }

    /// A turn began; `withIntakeWork` when it took the intake's signal (new events, a flush, a settings change).
    mutating func turnBegan(withIntakeWork: Bool) {
        if withIntakeWork { tookEvents = true }
    }

    /// The loop drained `events` events from the intake.
    mutating func drained(events: Int) {
        inBurst = events >= Self.burstDrain
    }

    /// Where the thread does not delay signals: how to park now that nothing is pending, with the loop's next
    /// deadline. A gathering window when the last one found events, else (and after a burst) an idle park until the
    /// deadline. Where the thread delays signals the loop asks ``parkDelaysSignals()`` instead, and this plan (never
    /// a gathering one there, as ``wokeFromIdle(now:deadline:byIntakeAlone:)`` starts none) would be its idle park
    /// without the delay.
    mutating func park(now: ContinuousClock.Instant, deadline: ContinuousClock.Instant?) -> Park {
        if inBurst {
            phase = .idle
            tookEvents = false
            return Park(until: deadline, holdsSignals: false)
        }
        if phase == .gathering, !tookEvents { phase = .idle }
        tookEvents = false
        guard phase == .gathering else { return Park(until: deadline, holdsSignals: false) }
        return gatheringPark(now: now, deadline: deadline)
    }

    /// Where the thread delays signals: whether the next park delays them by ``window`` (not after a burst: the
    /// loop then parks on its deadline alone, and the next signal ends the park at once). Asked without instants:
    /// the loop's usual park handles none. There the loop never gathers, so nothing else needs keeping.
    func parkDelaysSignals() -> Bool {
        delaysSignals && !inBurst
    }

    /// An idle park ended. Woken by the intake alone while nothing is being written, the loop gathers first: the
    /// park to make before the turn, if any.
    mutating func wokeFromIdle(
        now: ContinuousClock.Instant, deadline: ContinuousClock.Instant?, byIntakeAlone: Bool
    ) -> Park? {
        guard !delaysSignals, !inBurst, phase == .idle, byIntakeAlone else { return nil }
        phase = .gathering
        return gatheringPark(now: now, deadline: deadline)
    }

    private func gatheringPark(now: ContinuousClock.Instant, deadline: ContinuousClock.Instant?) -> Park {
        let end = now.advanced(by: window)
        return Park(until: deadline.map { min($0, end) } ?? end, holdsSignals: true)
    }
}
