/// The caller's side of encoding (Decisions 0221, 0258): while the loop is behind, a caller encodes its own event
/// against the intake's current ``EncodingSnapshot`` outside the lock and hands the bytes over; otherwise the intake
/// takes the structured event and the loop encodes it. Either way an event is encoded once.
extension EventIntake {
    /// What a caller encodes its event against; `nil` while events are handed over structured: stages are
    /// installed, the pipeline has not started, the loop keeps up (a caller that does not await room, below
    /// ``IntakeAdmission/callerEncodingDepth``: the loop encodes beside it), or the write stage is full (its overflow
    /// is about to drop an event, the new one or the oldest, and one it drops is best never encoded: the loop
    /// encodes the ones that survive). ``IntakeAdmission/callerEncodes(queued:lastDrain:awaitsRoom:)`` decides.
    func encodingSnapshot(awaitsRoom: Bool) -> EncodingSnapshot? {
        state.withLock { state in
            state.admission.callerEncodes(
                queued: state.liveCount, lastDrain: state.lastDrainCount, awaitsRoom: awaitsRoom) ? state.snapshot : nil
        }
    }

    /// Enqueues an event its caller encoded against `snapshot` (`nil`: the event carries nothing of the
    /// instance's identity). Returns `nil`, taking and counting nothing, when the identity changed since the
    /// snapshot was taken: the caller encodes again against the new one. Otherwise as ``accept(_:)``.
    func accept(_ event: EncodedEvent, against snapshot: EncodingSnapshot?) -> Bool? {
        let handed = state.withLock { state -> Handed? in
            if let snapshot, state.snapshot !== snapshot { return nil }
            return Self.hand({ _ in .encoded(event) }, in: &state)
        }
        guard let handed else { return nil }
        return finish(handed)
    }

    /// What a caller that does not await room does with its event (``acceptUnlessCallerEncodes(_:)``).
    enum Handover {
        /// The intake decided under its lock: taken structured (`true`) or refused (`false`, counted as
        /// ``accept(_:)`` counts).
        case handled(Bool)
        /// The caller encodes the event against this snapshot, outside the lock, and hands the bytes over with
        /// ``accept(_:against:)``.
        case encode(EncodingSnapshot)
    }

    /// The caller's side of ``IntakeAdmission/callerEncodes(queued:lastDrain:awaitsRoom:)`` and the structured
    /// hand-over in one lock: when the caller is to encode, returns the snapshot to encode against and takes
    /// nothing; otherwise does what ``accept(_:)`` does. A caller that does not await room pays one lock per event
    /// while the loop keeps up (``encodingSnapshot(awaitsRoom:)`` then ``accept(_:)`` took two).
    func acceptUnlessCallerEncodes(_ build: (IdentityState) -> PendingEvent) -> Handover {
        let decided = state.withLock { state -> Decided in
            if let snapshot = state.snapshot,
                state.admission.callerEncodes(
                    queued: state.liveCount, lastDrain: state.lastDrainCount, awaitsRoom: false)
            {
                return .encode(snapshot)
            }
            return .handed(Self.hand(build, in: &state))
        }
        switch decided {
        case .handed(let handed): return .handled(finish(handed))
        case .encode(let snapshot): return .encode(snapshot)
        }
    }

    /// A mobile event from the facade (``Binoban/track(name:properties:)`` and the instance's other calls), stamped
    /// with `messageId` and `timestampMillis`: handed over structured, or encoded by the caller against the current
    /// snapshot and handed over as bytes (encoded again if the identity changed meanwhile), as
    /// ``acceptUnlessCallerEncodes(_:)`` and ``accept(_:against:)`` decide. Returns whether it was taken.
    ///
    /// One method of the intake rather than two calls from the facade: every producer shares the intake and its
    /// snapshot, and a call here retains neither the intake nor, more than once, the snapshot (each retain and
    /// release is an atomic write to a counter all producers write).
    func acceptMobile(
        _ kind: PendingEvent.Kind, name: String, payload: JSONValue, messageId: MessageID, timestampMillis: Int64
    ) -> Bool {
        while true {
            let handover = acceptUnlessCallerEncodes { current in
                PendingEvent(
                    kind: kind, name: name, payload: payload, messageId: messageId, timestampMillis: timestampMillis,
                    anonymousId: current.anonymousId, userId: current.userId, deviceToken: current.deviceToken)
            }
            switch handover {
            case .handled(let taken):
                return taken
            case .encode(let snapshot):
                let json = snapshot.encodeMobile(
                    kind, name: name, payload: payload, messageId: messageId, timestampMillis: timestampMillis)
                // `nil`: the identity changed while this caller encoded; ask again with the new one.
                let event = EncodedEvent(json: json, messageId: EventMessageID(generated: messageId), isAwaited: false)
                if let taken = accept(event, against: snapshot) { return taken }
            }
        }
    }

    /// What the lock decided in ``acceptUnlessCallerEncodes(_:)``: the event was handed over (signal and pace after
    /// the lock), or the caller encodes it first.
    fileprivate enum Decided {
        case handed(Handed)
        case encode(EncodingSnapshot)
    }
}
