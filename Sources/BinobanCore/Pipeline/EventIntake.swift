#if canImport(Glibc)
import Synchronization
#endif

/// The bounded, ordered hand-off between callers and the pipeline: a lock-protected queue. Whether an event is
/// taken is ``IntakeAdmission``'s to say (closed, paused, waiting for room, full); the queue performs the verdict
/// and counts it, and the pipeline machine decides everything after the drain.
///
/// Callers stamp events with the current identity and push them under one short lock; identity changes
/// happen under the same lock, in the same order, so an event keeps the identity of the moment it was
/// accepted. The first work after a drain calls `onWork` once, so the driver is woken without polling (a settings
/// change once more, since a driver holding a write takes the settings alone); the driver takes everything in one
/// O(1) swap.
final class EventIntake: Sendable {
    struct State {
        var identity: IdentityState
        var identityDirty: Bool
        /// Accepted events, oldest first; the first `skipped` of them were dropped to respect the capacity.
        var events: [PendingEvent] = []
        var skipped = 0
        let admission: IntakeAdmission
        /// An empty array with capacity, swapped in at the next drain.
        var spare: [PendingEvent] = []
        /// A drained array handed back by the driver with its events still in it: a caller empties it (so the
        /// events are freed on the thread that allocated them, not across threads) and makes it the spare.
        var stale: [PendingEvent] = []
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
        /// The pipeline's encoder, once it runs: events whose caller encoded their head are completed with it.
        var encoder: EventEncoder?
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
    /// Whether the queue can ever reach ``callerEncodingDepth`` (a smaller capacity never does, so `isDeep` is
    /// not even read), and callers may encode (not while stages are installed).
    private let canBeDeep: Bool
    #if canImport(Glibc)
    /// The queue depth as of the last push or drain, read by `isDeep` without taking the lock (a relaxed atomic;
    /// `Synchronization` would raise the Apple deployment targets, so there the lock is read instead).
    private let depthHint = Atomic<Int>(0)
    #endif
    private let onWork: LockedValue<WakeUp?>

    /// `callerEncodes: false` keeps every event in structured form (the host's before-send stages need it).
    init(
        identity: IdentityState, persistIdentity: Bool, capacity: Int, overflow: Overflow, settings: Settings,
        callerEncodes: Bool = true
    ) {
        canBeDeep = callerEncodes && capacity >= Self.callerEncodingDepth
        state = LockedValue(
            State(
                identity: identity,
                identityDirty: persistIdentity,
                admission: IntakeAdmission(capacity: capacity, overflow: overflow),
                settings: settings
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

    /// Gives the intake the pipeline's encoder, so that events a caller encoded in part are completed when they
    /// are stamped (the writer then only copies them).
    func setEncoder(_ encoder: EventEncoder) {
        state.withLock { $0.encoder = encoder }
    }

    /// Forgets the wake-up call (the driver stopped), so the intake no longer keeps the driver alive.
    func removeOnWork() {
        onWork.withLock { $0 = nil }
    }

    private func signal() {
        onWork.withLock { $0 }?.call()
    }

    // MARK: Caller side

    /// The current identity.
    var identity: IdentityState { state.withLock { $0.identity } }

    /// The current settings.
    var settings: Settings { state.withLock { $0.settings } }

    /// Whether the buffer holds work the driver has not taken.
    var hasWork: Bool { state.withLock { $0.hasWork } }

    /// The queue depth from which callers encode their own track events before handing them over
    /// (``PendingEvent/encodedHead``): the writer has fallen behind, so the producer takes on part of its work
    /// (CPU only, never I/O or waiting), which slows a tight loop to about what the writer takes and keeps the
    /// queued events compact. Below it `track()` stays as cheap as it can be.
    static let callerEncodingDepth = 4_096

    /// The depth from which `trackAwaitingRoom` waits, whatever the capacity: a caller that awaits has asked to
    /// be paced, so it is paced early. The writer takes the queue whole at every drain, so waiting here costs no
    /// throughput (callers refill while the writer writes), and the events an awaiting producer keeps in memory
    /// stay a few megabytes however large the capacity or the burst (Decision 0207).
    static let awaitingCallerDepth = 1_024

    /// Whether the queue is at least ``callerEncodingDepth`` deep (as of the last push or drain: a hint).
    var isDeep: Bool {
        guard canBeDeep else { return false }
        #if canImport(Glibc)
        return depthHint.load(ordering: .relaxed) >= Self.callerEncodingDepth
        #else
        return state.withLock { $0.liveCount >= Self.callerEncodingDepth }
        #endif
    }

    func publishDepth(_ depth: Int) {
        #if canImport(Glibc)
        if canBeDeep { depthHint.store(depth, ordering: .relaxed) }
        #endif
    }

    /// Stamps and enqueues an event built from the current identity. Returns `false` when paused (counted),
    /// closed, or full under ``Overflow/dropNewest`` (counted).
    @discardableResult
    func accept(_ build: (IdentityState) -> PendingEvent) -> Bool {
        let (accepted, wake) = state.withLock { state -> (Bool, Bool) in
            let verdict = state.verdict(awaitsRoom: false)
            guard Self.count(verdict, in: &state) else { return (false, verdict != .closed && state.shouldSignal()) }
            var event = build(state.identity)
            state.encoder?.completeHead(of: &event)
            Self.push(event, verdict, into: &state)
            publishDepth(state.liveCount)
            return (true, state.shouldSignal())
        }
        if wake { signal() }
        return accepted
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

    /// Like ``accept(_:)``, but once the buffer holds ``awaitingCallerDepth`` events (or is full, if its capacity
    /// is smaller) it waits for the next drain instead of adding to it, so it never drops; `false` when the
    /// instance is paused or closed, or the task was cancelled while waiting.
    func acceptWaitingForRoom(_ build: @escaping (IdentityState) -> PendingEvent) async -> Bool {
        await acceptWaitingForRoom(awaited: false, build) == .accepted
    }

    /// ``acceptWaitingForRoom(_:)`` saying why an event was not taken; `awaited` counts the event among those a
    /// caller awaits the outcome of (``PipelineDrain/awaitedEvents``).
    func acceptWaitingForRoom(
        awaited: Bool, _ build: @escaping (IdentityState) -> PendingEvent
    ) async -> AwaitedAdmission {
        while true {
            let (verdict, wake) = state.withLock { state -> (IntakeAdmission.Verdict, Bool) in
                let verdict = state.verdict(awaitsRoom: true)
                switch verdict {
                case .closed, .waitForRoom: return (verdict, false)
                case .paused, .refuseNewest:
                    _ = Self.count(verdict, in: &state)
                    return (verdict, state.shouldSignal())
                case .enqueue, .enqueueDroppingOldest:
                    _ = Self.count(verdict, in: &state)
                    Self.push(build(state.identity), verdict, into: &state)
                    if awaited { state.awaitedEvents += 1 }
                    return (verdict, state.shouldSignal())
                }
            }
            if wake { signal() }
            switch verdict {
            case .enqueue, .enqueueDroppingOldest: return .accepted
            case .paused: return .paused
            case .refuseNewest: return .overflowed
            case .closed: return .closed
            case .waitForRoom:
                guard await waitForRoom() else { return Task.isCancelled ? .cancelled : .closed }
            }
        }
    }

    /// Suspends until a drain makes room; `false` when the task is cancelled or the intake closes.
    private func waitForRoom() async -> Bool {
        let id = state.withLock { state -> UInt64 in
            state.nextWaiterID += 1
            return state.nextWaiterID
        }
        return await withTaskCancellationHandler {
            await withCheckedContinuation { (continuation: CheckedContinuation<Bool, Never>) in
                let resumeNow = state.withLock { state -> Bool? in
                    if Task.isCancelled || state.closed { return false }
                    if state.liveCount < state.admission.awaitingDepth { return true }
                    state.roomWaiters.append((id, continuation))
                    return nil
                }
                if let resumeNow { continuation.resume(returning: resumeNow) }
            }
        } onCancel: {
            let waiter = state.withLock { state -> CheckedContinuation<Bool, Never>? in
                guard let index = state.roomWaiters.firstIndex(where: { $0.id == id }) else { return nil }
                return state.roomWaiters.remove(at: index).continuation
            }
            waiter?.resume(returning: false)
        }
    }

    /// Changes the identity and, unless paused, enqueues an event stamped with the new identity, atomically.
    func changeIdentity(_ change: (inout IdentityState) -> Void, thenEmit build: ((IdentityState) -> PendingEvent)?) {
        let wake = state.withLock { state -> Bool in
            guard !state.closed else { return false }
            change(&state.identity)
            state.identityDirty = true
            if let build {
                let verdict = state.verdict(awaitsRoom: false)
                if Self.count(verdict, in: &state) { Self.push(build(state.identity), verdict, into: &state) }
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

    /// Asks for a flush after every event accepted so far. Returns `false` when the intake is closed.
    func requestFlush(waiterID: UInt64?) -> Bool {
        let (accepted, wake) = state.withLock { state -> (Bool, Bool) in
            guard !state.closed else { return (false, false) }
            state.tickets.append(FlushTicket(waiterID: waiterID))
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
    private static func count(_ verdict: IntakeAdmission.Verdict, in state: inout State) -> Bool {
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
    private static func push(
        _ event: consuming PendingEvent, _ verdict: IntakeAdmission.Verdict, into state: inout State
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
}
