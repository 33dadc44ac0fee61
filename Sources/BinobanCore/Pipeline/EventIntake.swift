/// The bounded, ordered hand-off between callers and the driver.
///
/// Callers stamp events with the current identity and push them under one short lock; identity changes
/// happen under the same lock, in the same order, so an event keeps the identity of the moment it was
/// accepted. When the buffer is full the oldest event is dropped and counted. The driver drains in chunks
/// and parks when there is nothing to do.
final class EventIntake: Sendable {
    /// Runtime settings that callers may change and the driver applies.
    struct Settings: Sendable, Equatable {
        var enabled: Bool
        var flushAt: Int
        var flushInterval: Duration
    }

    /// A flush asked for by a caller. The driver takes every queued event together with the tickets, so a
    /// ticket is honoured after every event accepted before it is stored.
    struct FlushTicket: Sendable, Equatable {
        /// The waiter to resume when the upload finishes, if the caller awaits.
        var waiterID: UInt64?
    }

    /// What one drain hands to the driver.
    struct Drain: Sendable {
        /// The taken buffer; its first `firstLive` elements were dropped (drop-oldest).
        var buffer: [PendingEvent] = []
        var firstLive = 0
        /// The events to store, oldest first.
        var events: ArraySlice<PendingEvent> { buffer[firstLive...] }
        var tickets: [FlushTicket] = []
        var identityToPersist: IdentityState?
        var settings: Settings?
        /// The instance was paused at some point since the previous drain, even if `settings` says it is
        /// enabled again: a pause and resume between two drains must still reach the driver as a resume.
        var pausedSinceLastDrain = false
        var droppedEvents = 0
        var closed = false
    }

    private struct State {
        var identity: IdentityState
        var identityDirty: Bool
        /// Accepted events, oldest first; the first `skipped` of them were dropped to respect `capacity`.
        var events: [PendingEvent] = []
        var skipped = 0
        var capacity: Int
        /// An empty array with capacity, swapped in at the next drain.
        var spare: [PendingEvent] = []
        /// A drained array handed back by the driver with its events still in it: a caller empties it (so the
        /// events are freed on the thread that allocated them, not across threads) and makes it the spare.
        var stale: [PendingEvent] = []
        var dropped = 0
        var tickets: [FlushTicket] = []
        var settings: Settings
        var settingsDirty = false
        var pausedSinceDrain = false
        var closed = false
        var waiter: CheckedContinuation<Void, Never>?

        var hasWork: Bool {
            events.count > skipped || !tickets.isEmpty || identityDirty || settingsDirty || dropped > 0 || closed
        }

        mutating func takeWaiterIfWork() -> CheckedContinuation<Void, Never>? {
            guard hasWork, let waiter else { return nil }
            self.waiter = nil
            return waiter
        }
    }

    private let state: LockedValue<State>

    init(identity: IdentityState, persistIdentity: Bool, capacity: Int, settings: Settings) {
        state = LockedValue(
            State(
                identity: identity,
                identityDirty: persistIdentity,
                capacity: max(1, capacity),
                settings: settings
            )
        )
    }

    // MARK: Caller side

    /// The current identity.
    var identity: IdentityState { state.withLock { $0.identity } }

    /// The current settings.
    var settings: Settings { state.withLock { $0.settings } }

    /// Stamps and enqueues an event built from the current identity. Returns `false` when paused or closed.
    @discardableResult
    func accept(_ build: (IdentityState) -> PendingEvent) -> Bool {
        let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard state.settings.enabled, !state.closed else { return (false, nil) }
            Self.push(build(state.identity), into: &state)
            return (true, state.takeWaiterIfWork())
        }
        waiter?.resume()
        return accepted
    }

    /// Changes the identity and, unless paused, enqueues an event stamped with the new identity, atomically.
    func changeIdentity(_ change: (inout IdentityState) -> Void, thenEmit build: ((IdentityState) -> PendingEvent)?) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            guard !state.closed else { return nil }
            change(&state.identity)
            state.identityDirty = true
            if let build, state.settings.enabled {
                Self.push(build(state.identity), into: &state)
            }
            return state.takeWaiterIfWork()
        }
        waiter?.resume()
    }

    /// Changes the runtime settings; the driver applies them at once.
    func updateSettings(_ change: (inout Settings) -> Void) {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            let before = state.settings
            change(&state.settings)
            if state.settings != before { state.settingsDirty = true }
            if before.enabled, !state.settings.enabled { state.pausedSinceDrain = true }
            return state.takeWaiterIfWork()
        }
        waiter?.resume()
    }

    /// Asks for a flush after every event accepted so far. Returns `false` when the intake is closed.
    func requestFlush(waiterID: UInt64?) -> Bool {
        let (accepted, waiter) = state.withLock { state -> (Bool, CheckedContinuation<Void, Never>?) in
            guard !state.closed else { return (false, nil) }
            state.tickets.append(FlushTicket(waiterID: waiterID))
            return (true, state.takeWaiterIfWork())
        }
        waiter?.resume()
        return accepted
    }

    /// Refuses further events; the driver drains what is queued and then sees `closed`.
    func close() {
        let waiter = state.withLock { state -> CheckedContinuation<Void, Never>? in
            state.closed = true
            return state.takeWaiterIfWork()
        }
        waiter?.resume()
    }

    /// Appends; beyond capacity the oldest event is dropped (counted). Dropped events are compacted away in
    /// amortised O(1), so memory stays below twice the capacity.
    private static func push(_ event: PendingEvent, into state: inout State) {
        if !state.stale.isEmpty, state.spare.capacity == 0 {
            var recycled = state.stale
            state.stale = []
            recycled.removeAll(keepingCapacity: true)
            state.spare = recycled
        }
        state.events.append(event)
        if state.events.count - state.skipped > state.capacity {
            state.skipped += 1
            state.dropped += 1
            if state.skipped >= max(state.capacity, 64) {
                state.events.removeFirst(state.skipped)
                state.skipped = 0
            }
        }
    }

    // MARK: Driver side

    /// Waits until there is work, then takes every queued event (an O(1) swap) and everything else pending.
    func next() async -> Drain {
        while true {
            if let drain = state.withLock({ Self.take(from: &$0) }) { return drain }
            await withCheckedContinuation { (continuation: CheckedContinuation<Void, Never>) in
                let resumeNow = state.withLock { state -> Bool in
                    if state.hasWork { return true }
                    state.waiter = continuation
                    return false
                }
                if resumeNow { continuation.resume() }
            }
        }
    }

    /// Hands a drained buffer back for reuse. Pass the only reference: a caller then frees its events.
    func recycle(_ buffer: consuming [PendingEvent]) {
        let kept = buffer
        let unused = state.withLock { state -> [PendingEvent] in
            guard state.stale.isEmpty, state.spare.capacity == 0 else { return kept }
            state.stale = kept
            return []
        }
        _ = unused
    }

    private static func take(from state: inout State) -> Drain? {
        guard state.hasWork else { return nil }
        var drain = Drain()
        var taken = state.spare
        state.spare = []
        swap(&taken, &state.events)
        drain.buffer = taken
        drain.firstLive = state.skipped
        state.skipped = 0
        drain.tickets = state.tickets
        state.tickets = []
        if state.identityDirty {
            drain.identityToPersist = state.identity
            state.identityDirty = false
        }
        if state.settingsDirty {
            drain.settings = state.settings
            state.settingsDirty = false
            drain.pausedSinceLastDrain = state.pausedSinceDrain
            state.pausedSinceDrain = false
        }
        drain.droppedEvents = state.dropped
        state.dropped = 0
        drain.closed = state.closed
        return drain
    }
}
