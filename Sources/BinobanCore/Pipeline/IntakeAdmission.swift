/// Whether the intake takes an event: the intake's only rules, apart from its lock and its buffer.
///
/// Rules, in this order:
/// 1. A closed intake (shut down) refuses every event, uncounted: nothing was accepted.
/// 2. A paused instance refuses the event; it counts as accepted and dropped while paused.
/// 3. A caller that awaits room (`trackAwaitingRoom`) waits while ``awaitingDepth`` events are queued: it asked
///    to be paced, so it is paced early and never drops.
/// 4. Below ``capacity`` the event is queued.
/// 5. At capacity, ``EventIntake/Overflow/dropNewest`` refuses the new event and
///    ``EventIntake/Overflow/dropOldest`` queues it and drops the oldest; either way one overflow drop is counted.
///
/// Pacing, beside the verdict: a caller that hands over an event while ``pacingDepth`` events are queued (a quarter
/// of the capacity, at least 4 096) gives up
/// the rest of its time slice once (``paces(queued:)``): the loop has fallen behind the producers, and on a busy
/// machine it gets the CPU only as one thread among many, so each producer lets it run rather than fill the queue
/// to its bound. CPU scheduling only: the caller never waits for the loop.
///
/// Who encodes, beside the verdict (``callerEncodes(queued:lastDrain:awaitsRoom:)``, Docs/Decisions/0221): a caller
/// encodes its event while the loop is behind (``callerEncodingDepth`` events queued, or its last drain held
/// ``pacingDepth``) or when it awaits room; while the loop keeps up, the caller hands the event over structured and
/// the loop, otherwise idle between drains, encodes it. Either way the event is encoded once.
struct IntakeAdmission: Sendable, Equatable {
    /// What happens to one event.
    enum Verdict: Sendable, Equatable {
        /// Refused, uncounted: the intake is closed.
        case closed
        /// Refused and counted as a paused drop.
        case paused
        /// The awaiting caller waits for the next drain, then asks again.
        case waitForRoom
        /// Queued.
        case enqueue
        /// Queued; the oldest queued event is dropped (counted).
        case enqueueDroppingOldest
        /// Refused and counted as an overflow drop.
        case refuseNewest
    }

    /// The most events queued at once.
    let capacity: Int
    /// The depth from which an awaiting caller waits: ``EventIntake/awaitingCallerDepth``, or the capacity if
    /// smaller.
    let awaitingDepth: Int
    let overflow: EventIntake.Overflow
    /// The depth from which callers yield the processor once per event: a quarter of the capacity, and never below
    /// ``minimumPacingDepth`` (so a write stage smaller than that never paces: there the drops of a full stage are
    /// the documented bound, and a yield per call on a queue that small cost a context switch per event).
    let pacingDepth: Int
    /// The smallest ``pacingDepth``.
    static let minimumPacingDepth = 4_096
    /// The depth from which a caller that does not await room encodes its event itself: the loop has fallen two
    /// of its write chunks behind (``WriteStageBuffer/chunkSize``), so moving the encoding off it pays; below it the
    /// loop keeps up and encodes on the other processor while the caller goes on (``callerEncodes(queued:lastDrain:awaitsRoom:)``).
    let callerEncodingDepth: Int
    /// The default ``callerEncodingDepth``.
    static let defaultCallerEncodingDepth = 4_096

    init(
        capacity: Int, overflow: EventIntake.Overflow,
        callerEncodingDepth: Int = IntakeAdmission.defaultCallerEncodingDepth
    ) {
        self.capacity = max(1, capacity)
        self.awaitingDepth = max(1, min(capacity, EventIntake.awaitingCallerDepth))
        self.overflow = overflow
        pacingDepth = max(Self.minimumPacingDepth, self.capacity / 4)
        self.callerEncodingDepth = max(0, callerEncodingDepth)
    }

    /// Whether a caller that is about to hand over an event with `queued` events in the queue, `lastDrain` events
    /// having been taken at the loop's last drain, encodes it itself. Never at capacity: the overflow is about to
    /// drop an event (the new one or the oldest), and one it drops is best never encoded. Otherwise an awaiting
    /// caller always does (it is paced by the loop, so the loop is the bottleneck), and any other caller from
    /// ``callerEncodingDepth`` on, or after a drain of ``pacingDepth`` or more (the loop was far behind: the events
    /// that refill the queue after each of its drains are encoded by their callers too, until it catches up).
    /// Below that the loop keeps up, and a single producer's burst ends sooner when the loop encodes beside it than
    /// when the producer encodes alone.
    @inline(__always)
    func callerEncodes(queued: Int, lastDrain: Int, awaitsRoom: Bool) -> Bool {
        queued < capacity && (awaitsRoom || queued >= callerEncodingDepth || lastDrain >= pacingDepth)
    }

    /// Whether a caller that just handed over an event with `queued` events in the queue yields the processor.
    @inline(__always)
    func paces(queued: Int) -> Bool { queued >= pacingDepth }

    /// The verdict for one event, given the queue depth and the intake's state.
    @inline(__always)
    func verdict(queued: Int, enabled: Bool, closed: Bool, awaitsRoom: Bool) -> Verdict {
        if closed { return .closed }
        if !enabled { return .paused }
        if awaitsRoom { return queued < awaitingDepth ? .enqueue : .waitForRoom }
        if queued < capacity { return .enqueue }
        switch overflow {
        case .dropOldest: return .enqueueDroppingOldest
        case .dropNewest: return .refuseNewest
        }
    }
}
