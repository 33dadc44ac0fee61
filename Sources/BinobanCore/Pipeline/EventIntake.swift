#if canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#elseif canImport(Darwin)
import Darwin
#endif

/// The bounded, ordered hand-off between callers and the pipeline: a lock-protected queue. Whether an event is
/// taken is ``IntakeAdmission``'s to say (closed, paused, waiting for room, full); the queue performs the verdict
/// and counts it, and the pipeline machine decides everything after the drain.
///
/// Once the pipeline runs (and unless before-send stages are installed), callers encode their events themselves
/// while the loop is behind (``IntakeAdmission/callerEncodes(queued:lastDrain:awaitsRoom:)``, Docs/Decisions/0221),
/// outside the lock, against the current ``EncodingSnapshot``, and push the bytes under one short lock, which
/// takes them only while that snapshot is still the current one; identity changes replace the snapshot under the
/// same lock, in the same order, so an event keeps the identity of the moment it was accepted. Otherwise callers
/// push structured events stamped under the lock, which the loop encodes (Docs/Decisions/0220). The first work after a drain calls `onWork` once, so the driver is woken without polling (a settings
/// change once more, since a driver holding a write takes the settings alone); the driver takes everything in one
/// O(1) swap.
final class EventIntake: Sendable {
    struct State {
        var identity: IdentityState
        var identityDirty: Bool
        /// Accepted events, oldest first; the first `skipped` of them were dropped to respect the capacity.
        var events: [QueuedEvent] = []
        var skipped = 0
        /// How many events the last drain took: who encodes asks it (``IntakeAdmission/callerEncodes(queued:lastDrain:awaitsRoom:)``).
        var lastDrainCount = 0
        let admission: IntakeAdmission
        /// An empty array with capacity, swapped in at the next drain.
        var spare: [QueuedEvent] = []
        /// A drained array handed back by the driver with its events still in it: a caller empties it (so the
        /// events are freed on the thread that allocated them, not across threads) and makes it the spare.
        var stale: [QueuedEvent] = []
        var accepted = 0
        var overflowDrops = 0
        var pausedDrops = 0
        /// Events a caller awaits the outcome of, accepted since the last drain.
        var awaitedEvents = 0
        var tickets: [FlushTicket] = []
        var settings: Settings
        var settingsDirty = false
        /// `onWork` was called for a settings change since the last take of the settings.
        var settingsSignalled = false
        var pausedSinceDrain = false
        var closed = false
        /// A drain has handed the close to the pipeline: the intake stays closed, but that is no longer work.
        var closeTaken = false
        /// Whether callers may encode their events (not while stages are installed: they need them structured).
        let callerEncodes: Bool
        /// The pipeline's encoder, once it runs (and only when callers encode).
        var encoder: EventEncoder?
        /// What callers encode against: the encoder and the current identity, replaced at every identity change;
        /// `nil` while callers hand over structured events.
        var snapshot: EncodingSnapshot?
        /// `onWork` was called since the last drain.
        var signalled = false
        /// Callers waiting for room, in arrival order.
        var roomWaiters: [(id: UInt64, continuation: CheckedContinuation<Bool, Never>)] = []
        var nextWaiterID: UInt64 = 0

        var liveCount: Int { events.count - skipped }

        @inline(__always)
        func verdict(awaitsRoom: Bool) -> IntakeAdmission.Verdict {
            admission.verdict(queued: liveCount, enabled: settings.enabled, closed: closed, awaitsRoom: awaitsRoom)
        }

        var hasWork: Bool {
            liveCount > 0 || !tickets.isEmpty || identityDirty || settingsDirty || overflowDrops > 0
                || pausedDrops > 0 || (closed && !closeTaken)
        }

        /// Whether the caller must call `onWork` now (the first work since the last drain).
        mutating func shouldSignal() -> Bool {
            guard hasWork, !signalled else { return false }
            signalled = true
            return true
        }
    }

    /// The driver's wake-up call. A struct around the closure: a bare closure held in a generic lock would be
    /// re-abstracted (wrapped in two more thunks) at every `withLock`, growing slower and deeper on every call.
    private struct WakeUp: Sendable {
        let call: @Sendable () -> Void
    }

    let state: LockedValue<State>
    private let onWork: LockedValue<WakeUp?>
    /// Gives up the caller's time slice (``IntakeAdmission/paces(queued:)``); a test counts the calls instead.
    private let yieldProcessor: @Sendable () -> Void

    /// `callerEncodes: false` keeps every event in structured form (the host's before-send stages need it);
    /// `callerEncodingDepth` is the queue depth from which callers that do not await room encode (a test's
    /// intake passes 0 to have every caller encode).
    init(
        identity: IdentityState, persistIdentity: Bool, capacity: Int, overflow: Overflow, settings: Settings,
        callerEncodes: Bool = true, callerEncodingDepth: Int = IntakeAdmission.defaultCallerEncodingDepth,
        yieldProcessor: @escaping @Sendable () -> Void = EventIntake.yieldThread
    ) {
        self.yieldProcessor = yieldProcessor
        state = LockedValue(
            State(
                identity: identity,
                identityDirty: persistIdentity,
                admission: IntakeAdmission(
                    capacity: capacity, overflow: overflow, callerEncodingDepth: callerEncodingDepth),
                settings: settings,
                callerEncodes: callerEncodes
            )
        )
        onWork = LockedValue(nil)
    }

    /// Installs the driver's wake-up call; called at once if work is already waiting.
    func setOnWork(_ callback: @escaping @Sendable () -> Void) {
        onWork.withLock { $0 = WakeUp(call: callback) }
        // Work that arrived before the callback was installed signalled no one.
        let pending = state.withLock { state -> Bool in
            state.signalled = state.hasWork
            return state.hasWork
        }
        if pending { callback() }
    }

    /// Gives the intake the pipeline's encoder: from now on callers encode their events (unless stages are
    /// installed), and the loop only hands the bytes to storage.
    func setEncoder(_ encoder: EventEncoder) {
        state.withLock { state in
            guard state.callerEncodes else { return }
            state.encoder = encoder
            state.snapshot = EncodingSnapshot(identity: state.identity, encoder: encoder)
        }
    }

    /// Forgets the wake-up call (the driver stopped), so the intake no longer keeps the driver alive.
    func removeOnWork() {
        onWork.withLock { $0 = nil }
    }

    /// Calls the driver's wake-up call (after the lock is let go).
    func signal() {
        onWork.withLock { $0 }?.call()
    }

    // MARK: Caller side

    /// The current identity.
    var identity: IdentityState { state.withLock { $0.identity } }

    /// The current settings.
    var settings: Settings { state.withLock { $0.settings } }

    /// Whether the buffer holds work the driver has not taken.
    var hasWork: Bool { state.withLock { $0.hasWork } }

    /// The depth from which `trackAwaitingRoom` waits, whatever the capacity: a caller that awaits has asked to
    /// be paced, so it is paced early. The writer takes the queue whole at every drain, so waiting here costs no
    /// throughput (callers refill while the writer writes), and the events an awaiting producer keeps in memory
    /// stay a few megabytes however large the capacity or the burst (Decision 0207).
    static let awaitingCallerDepth = 1_024

    /// Stamps and enqueues a structured event built from the current identity (the loop encodes it). Returns
    /// `false` when paused (counted), closed, or full under ``Overflow/dropNewest`` (counted).
    @discardableResult
    func accept(_ build: (IdentityState) -> PendingEvent) -> Bool {
        finish(state.withLock { Self.hand(build, in: &$0) })
    }

    /// What the lock decided for one event, and what the caller does after letting it go.
    struct Handed {
        var accepted: Bool
        var wake: Bool
        var pace: Bool
    }

    /// Counts and queues one event under the lock (as ``count(_:in:)`` and ``push(_:_:into:)``); `make` builds it
    /// from the current identity, only when it is taken.
    @inline(__always)
    static func hand(_ make: (IdentityState) -> QueuedEvent, in state: inout State) -> Handed {
        let verdict = state.verdict(awaitsRoom: false)
        guard count(verdict, in: &state) else {
            return Handed(accepted: false, wake: verdict != .closed && state.shouldSignal(), pace: false)
        }
        let event = make(state.identity)
        push(event, verdict, into: &state)
        return Handed(
            accepted: true, wake: state.shouldSignal(), pace: state.admission.paces(queued: state.liveCount))
    }

    @inline(__always)
    static func hand(_ build: (IdentityState) -> PendingEvent, in state: inout State) -> Handed {
        hand({ .structured(build($0)) }, in: &state)
    }

    /// Signals and paces after the lock is let go.
    @inline(__always)
    func finish(_ handed: Handed) -> Bool {
        if handed.wake { signal() }
        if handed.pace { yieldProcessor() }
        return handed.accepted
    }

    /// What became of an event handed over by ``acceptWaitingForRoom(awaited:_:)``.
    enum AwaitedAdmission: Sendable, Equatable {
        case accepted
        /// Refused and counted as a paused drop.
        case paused
        /// Refused and counted as an overflow drop (not reached by an awaiting caller, which is paced before the
        /// buffer is full).
        case overflowed
        /// Refused, uncounted: the intake is closed.
        case closed
        /// The task was cancelled while waiting for room: not handed over, uncounted.
        case cancelled
    }

    /// Changes the identity and, unless paused, enqueues an event stamped with the new identity, atomically. Callers
    /// encode against the new identity from now on: an event encoded against the old one is encoded again.
    func changeIdentity(_ change: (inout IdentityState) -> Void, thenEmit build: ((IdentityState) -> PendingEvent)?) {
        let wake = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            change(&state.identity)
            state.identityDirty = true
            if let encoder = state.encoder {
                state.snapshot = EncodingSnapshot(identity: state.identity, encoder: encoder)
            }
            if let build {
                let verdict = state.verdict(awaitsRoom: false)
                if Self.count(verdict, in: &state) {
                    // Encoded here, under the lock: identity changes are rare, and the event must carry this one.
                    let event = build(state.identity)
                    let queued: QueuedEvent =
                        state.encoder.map {
                            .encoded(
                                EncodedEvent(
                                    json: $0.encode(event), messageId: EventMessageID(generated: event.messageId),
                                    isAwaited: false))
                        } ?? .structured(event)
                    Self.push(queued, verdict, into: &state)
                }
            }
            return state.shouldSignal()
        }
        if wake { signal() }
    }

    /// Changes the runtime settings; the driver applies them at once.
    func updateSettings(_ change: (inout Settings) -> Void) {
        let wake = state.withLock { state -> Bool in
            let before = state.settings
            change(&state.settings)
            if before.enabled, !state.settings.enabled { state.pausedSinceDrain = true }
            guard state.settings != before else { return state.shouldSignal() }
            state.settingsDirty = true
            // A settings change signals once per take of the settings, even when queued events signalled
            // already: a held write takes the settings alone, and a pause must not wait for room.
            let first = !state.settingsSignalled
            state.settingsSignalled = true
            let signal = state.shouldSignal()
            return signal || first
        }
        if wake { signal() }
    }

    /// Asks for a flush after every event accepted so far; an awaited one (`waiterID`) counts its result from
    /// `baseline`, the figures the host could read when it asked. Returns `false` when the intake is closed.
    func requestFlush(waiterID: UInt64?, baseline: FlushResults.Baseline? = nil) -> Bool {
        let (accepted, wake) = state.withLock { state -> (Bool, Bool) in
            guard !state.closed else { return (false, false) }
            state.tickets.append(FlushTicket(waiterID: waiterID, baseline: baseline))
            return (true, state.shouldSignal())
        }
        if wake { signal() }
        return accepted
    }

    /// Refuses further events; the driver drains what is queued and then sees `closed`. Callers waiting for
    /// room return `false`.
    func close() {
        let (wake, waiters) = state.withLock { state -> (Bool, [CheckedContinuation<Bool, Never>]) in
            state.closed = true
            let waiters = state.roomWaiters.map(\.continuation)
            state.roomWaiters = []
            return (state.shouldSignal(), waiters)
        }
        for waiter in waiters { waiter.resume(returning: false) }
        if wake { signal() }
    }

    /// Counts a verdict: every verdict but `closed` and `waitForRoom` is an accepted event, paused and overflow
    /// refusals are drops. Returns whether the event is to be queued.
    @inline(__always)
    static func count(_ verdict: IntakeAdmission.Verdict, in state: inout State) -> Bool {
        switch verdict {
        case .closed, .waitForRoom:
            return false
        case .paused:
            state.accepted += 1
            state.pausedDrops += 1
            return false
        case .refuseNewest:
            state.accepted += 1
            state.overflowDrops += 1
            return false
        case .enqueue, .enqueueDroppingOldest:
            state.accepted += 1
            return true
        }
    }

    /// Appends an admitted event; with `enqueueDroppingOldest` the oldest is dropped (counted). Dropped events
    /// are compacted away in amortised O(1), so memory stays below twice the capacity. The event is consumed: it
    /// moves into the queue instead of being copied.
    static func push(
        _ event: consuming QueuedEvent, _ verdict: IntakeAdmission.Verdict, into state: inout State
    ) {
        if !state.stale.isEmpty, state.spare.capacity == 0 {
            var recycled = state.stale
            state.stale = []
            recycled.removeAll(keepingCapacity: true)
            state.spare = recycled
        }
        state.events.append(event)
        if verdict == .enqueueDroppingOldest {
            state.skipped += 1
            state.overflowDrops += 1
            if state.skipped >= max(state.admission.capacity, 64) {
                state.events.removeFirst(state.skipped)
                state.skipped = 0
            }
        }
    }

    /// Gives up the rest of the calling thread's time slice: it returns at once when no other thread waits for
    /// the processor.
    @Sendable static func yieldThread() {
        sched_yield()
    }
}
