/// The pipeline's side of ``EventIntake``: taking the queued events and everything pending in one O(1) swap, taking
/// a settings change alone, and handing drained buffers back for reuse.
extension EventIntake {
    /// A settings change taken without the events (``takeSettings()``).
    struct SettingsChange: Sendable, Equatable {
        var settings: Settings
        /// The instance was paused at some point since the previous take.
        var pausedSinceLastDrain: Bool
    }

    /// Takes the settings change alone, leaving the events queued; `nil` when the settings did not change.
    func takeSettings() -> SettingsChange? {
        state.withLock { state in
            state.settingsSignalled = false
            guard state.settingsDirty else { return nil }
            state.settingsDirty = false
            defer { state.pausedSinceDrain = false }
            return SettingsChange(settings: state.settings, pausedSinceLastDrain: state.pausedSinceDrain)
        }
    }

    /// Takes every queued event (an O(1) swap) and everything else pending, and wakes callers waiting for room.
    func take() -> Drain {
        let (drain, waiters) = state.withLock { state -> (Drain, [CheckedContinuation<Bool, Never>]) in
            state.signalled = false
            var drain = Drain()
            var taken = state.spare
            state.spare = []
            swap(&taken, &state.events)
            drain.buffer = taken
            drain.firstLive = state.skipped
            state.skipped = 0
            var summary = PipelineDrain()
            summary.eventCount = drain.buffer.count - drain.firstLive
            state.lastDrainCount = summary.eventCount
            summary.tickets = state.tickets
            state.tickets = []
            if state.identityDirty {
                summary.identity = state.identity
                state.identityDirty = false
            }
            if state.settingsDirty {
                summary.settings = state.settings
                state.settingsDirty = false
                summary.pausedSinceLastDrain = state.pausedSinceDrain
                state.pausedSinceDrain = false
            }
            state.settingsSignalled = false
            summary.acceptedEvents = state.accepted
            summary.overflowDrops = state.overflowDrops
            summary.pausedDrops = state.pausedDrops
            summary.awaitedEvents = state.awaitedEvents
            state.awaitedEvents = 0
            state.accepted = 0
            state.overflowDrops = 0
            state.pausedDrops = 0
            summary.closed = state.closed
            state.closeTaken = state.closed
            drain.summary = summary
            let waiters = state.roomWaiters.map(\.continuation)
            state.roomWaiters = []
            return (drain, waiters)
        }
        for waiter in waiters { waiter.resume(returning: true) }
        return drain
    }

    /// The largest buffer kept for reuse, in events. A buffer that grew past it during a burst is freed instead:
    /// kept, its capacity alone (56 bytes per event) would hold tens of megabytes long after the burst.
    static let recycledCapacityLimit = 8_192

    /// The most events of a drained buffer the loop frees itself (``recycle(_:)``). Events that come one at a time
    /// arrive a few per drain (one or two at 200 events a second): freeing them cost the next caller about a
    /// microsecond, cold, on the host's thread, while the loop has time to spare between its turns. A burst's
    /// drains hold thousands, and those a caller frees: glibc frees far faster on the thread that allocated
    /// (Decision 0206's addendum).
    static let loopFreedDrainLimit = 64

    /// Hands a drained buffer back for reuse. Pass the only reference: a caller then frees its events, unless the
    /// buffer has room for at most ``loopFreedDrainLimit`` of them: then they are freed here, on the loop's thread,
    /// and the caller finds an empty spare of the same capacity (a small allocation on the loop; a large buffer
    /// that holds few events, after a burst, still goes to a caller, which empties it in place).
    func recycle(_ buffer: consuming [QueuedEvent]) {
        let kept = buffer
        guard kept.capacity <= Self.recycledCapacityLimit else { return }
        if kept.capacity <= Self.loopFreedDrainLimit {
            // `kept`'s events are freed when it goes, here; a spare the intake already has frees this one, after
            // the lock.
            var spare: [QueuedEvent] = []
            spare.reserveCapacity(kept.capacity)
            _ = state.withLock { state -> [QueuedEvent] in
                guard state.spare.capacity == 0 else { return spare }
                state.spare = spare
                return []
            }
            return
        }
        let unused = state.withLock { state -> [QueuedEvent] in
            guard state.stale.isEmpty, state.spare.capacity == 0 else { return kept }
            state.stale = kept
            return []
        }
        _ = unused
    }
}
