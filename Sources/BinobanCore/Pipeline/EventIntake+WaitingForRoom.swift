/// The callers that asked to wait for room (`trackAwaitingRoom`, awaited server calls): the `.wait` side of
/// ``IntakeAdmission``, which admits them only below ``EventIntake/awaitingCallerDepth`` queued events.
extension EventIntake {
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
        await admitWaitingForRoom(awaited: awaited) { .structured(build($0.identity)) } ?? .closed
    }

    /// ``acceptWaitingForRoom(awaited:_:)`` for an event its caller encoded against `snapshot`; `nil`, taking and
    /// counting nothing, when the identity changed since (as ``accept(_:against:)``).
    func acceptWaitingForRoom(_ event: EncodedEvent, against snapshot: EncodingSnapshot?) async -> AwaitedAdmission? {
        await admitWaitingForRoom(awaited: event.isAwaited) { state in
            if let snapshot, state.snapshot !== snapshot { return nil }
            return .encoded(event)
        }
    }

    /// Waits for room as the admission rule says, then queues what `make` returns; `nil` when `make` returned
    /// `nil` (a stale snapshot: nothing taken or counted).
    private func admitWaitingForRoom(
        awaited: Bool, _ make: (State) -> QueuedEvent?
    ) async -> AwaitedAdmission? {
        while true {
            let (verdict, wake, stale) = state.withLock { state -> (IntakeAdmission.Verdict, Bool, Bool) in
                let verdict = state.verdict(awaitsRoom: true)
                switch verdict {
                case .closed, .waitForRoom: return (verdict, false, false)
                case .paused, .refuseNewest:
                    _ = Self.count(verdict, in: &state)
                    return (verdict, state.shouldSignal(), false)
                case .enqueue, .enqueueDroppingOldest:
                    guard let event = make(state) else { return (verdict, false, true) }
                    _ = Self.count(verdict, in: &state)
                    Self.push(event, verdict, into: &state)
                    if awaited { state.awaitedEvents += 1 }
                    return (verdict, state.shouldSignal(), false)
                }
            }
            if wake { signal() }
            if stale { return nil }
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
}
