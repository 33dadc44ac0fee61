extension Binoban {
    /// Records an event with the identity given for this event only; the instance's identity is unchanged. The
    /// same as `server.track(name:properties:as:fields:)` (a server call: no instance device id,
    /// and no anonymousId when `identity` has a userId only).
    public func track(name: String, properties: JSONValue = [:], as identity: BinobanEventIdentity) {
        server.track(name: name, properties: properties, as: identity)
    }

    /// Records an event with properties given as `[String: Any]` and the identity given for this event only;
    /// values JSON cannot carry are dropped and reported, and the instance's identity is unchanged.
    public func track(name: String, properties: [String: Any], as identity: BinobanEventIdentity) {
        server.track(name: name, properties: convert(properties), as: identity)
    }

    /// Records an identify event for the person in `identity` with `traits`, for server hosts that act on behalf
    /// of many users; the instance's own userId, traits and stored identity are not touched. The same as
    /// `server.identify(traits:as:fields:)`.
    public func identify(traits: JSONValue = [:], as identity: BinobanEventIdentity) {
        server.identify(traits: traits, as: identity)
    }

    /// Records an identify event for the person in `identity` with traits given as `[String: Any]`; values JSON
    /// cannot carry are dropped and reported.
    public func identify(traits: [String: Any], as identity: BinobanEventIdentity) {
        server.identify(traits: convert(traits), as: identity)
    }

    /// Stamps a server call, encodes it on the caller's thread and hands it to the intake; `false` when the
    /// instance is disabled, paused or stopped. `identity` `nil` takes the instance's anonymousId and userId
    /// (``BinobanServerEvents``'s `screen(title:properties:)`).
    @discardableResult
    func acceptServerCall(_ call: ServerCall) -> Bool {
        guard let runtime else { return false }
        let event = serverEvent(call, awaited: false, runtime: runtime)
        let intake = runtime.intake
        var accepted: Bool?
        while accepted == nil {
            // A closure, not the method `event.make`: a method taken as a value boxed the whole stamped call.
            switch intake.acceptUnlessCallerEncodes({ event.make($0) }) {
            case .handled(let taken):
                accepted = taken
            case .encode(let snapshot):
                let (encoded, usedIdentity) = event.encode(with: snapshot)
                // `nil`: the instance's identity, which this event carries, changed meanwhile; ask again.
                accepted = intake.accept(encoded, against: usedIdentity ? snapshot : nil)
            }
        }
        if debugLogIsOn {
            debugLog.event(
                call.kind, name: call.name, fieldCount: call.body.objectValue?.count ?? 0, accepted: accepted ?? false)
        }
        return accepted ?? false
    }

    /// Stamps a server call, hands it to the intake (waiting for room like `trackAwaitingRoom`) and waits until
    /// the pipeline says what became of it (``BinobanServerEvents/awaitingDelivery``).
    func awaitServerCall(_ call: ServerCall) async -> BinobanEventOutcome {
        guard let runtime else { return .notAccepted }
        let event = serverEvent(call, awaited: true, runtime: runtime)
        // Registered before the event is handed over: its outcome may come before this task waits.
        let token = runtime.outcomeWaiters.register(call.fields.hostMessageId ?? event.messageId.text)
        let intake = runtime.intake
        var admission: EventIntake.AwaitedAdmission?
        while admission == nil {
            guard let snapshot = intake.encodingSnapshot(awaitsRoom: true) else {
                admission = await intake.acceptWaitingForRoom(awaited: true, event.make)
                break
            }
            let (encoded, usedIdentity) = event.encode(with: snapshot)
            admission = await intake.acceptWaitingForRoom(encoded, against: usedIdentity ? snapshot : nil)
        }
        let refused: BinobanEventOutcome?
        switch admission ?? .closed {
        case .accepted: refused = nil
        case .paused: refused = .finished(.dropped(.paused))
        case .overflowed: refused = .finished(.dropped(.writeStageOverflow))
        case .closed: refused = .notAccepted
        case .cancelled: refused = .cancelled
        }
        // A refused caller is settled before the admission is noted: a test kit goes on at the note, and a shutdown
        // it starts then would find the caller still registered and settle it `.unfinished` as well.
        if let refused { runtime.outcomeWaiters.withdraw(token, settledAs: refused) }
        runtime.outcomeWaiters.noteAdmission()
        if debugLogIsOn {
            debugLog.event(
                call.kind, name: call.name, fieldCount: call.body.objectValue?.count ?? 0,
                accepted: admission == .accepted)
        }
        guard let refused else { return await runtime.outcomeWaiters.wait(token) }
        return refused
    }

    /// The event of a server call, stamped now: built from the instance's identity of the moment it is taken
    /// (under the intake's lock, or from the snapshot it is encoded against), with the id generated for it (sent
    /// unless the caller gave its own `messageId`).
    private func serverEvent(_ call: ServerCall, awaited: Bool, runtime: BinobanRuntime) -> StampedServerCall {
        let hostMessageId = call.fields.hostMessageId
        let messageId = hostMessageId == nil ? MessageID.random(from: runtime.random) : MessageID(high: 0, low: 0)
        let now = call.fields.timestampMillis ?? configuration.wallClock.currentMillisecondsSince1970()
        let serverFields = PendingEvent.serverFields(
            messageId: hostMessageId, context: call.fields.context, integrations: call.fields.integrations,
            category: call.category, groupId: call.groupId, previousId: call.previousId, isAwaited: awaited)
        return StampedServerCall(
            kind: call.kind, name: call.name, body: call.body, identity: call.identity, messageId: messageId,
            timestampMillis: now, fields: serverFields)
    }
}

/// A server call stamped with its message id and time, not yet with the instance's identity.
struct StampedServerCall: Sendable {
    var kind: PendingEvent.Kind
    var name: String
    var body: JSONValue
    var identity: BinobanEventIdentity?
    var messageId: MessageID
    var timestampMillis: Int64
    var fields: PendingEvent.ServerFields

    /// Whether the event carries any of the instance's identity (``EventIdentityRule``): only then does an
    /// identity change while it is encoded matter.
    var usesInstanceIdentity: Bool { EventIdentityRule.usesInstance(for: kind, given: identity) }

    /// The structured event with the instance's identity `current`.
    func make(_ current: IdentityState) -> PendingEvent {
        let ids = EventIdentityRule.ids(for: kind, given: identity, instance: current)
        return PendingEvent(
            kind: kind, name: name, payload: body, messageId: messageId, timestampMillis: timestampMillis,
            anonymousId: ids.anonymousId, userId: ids.userId, deviceToken: nil, server: fields)
    }

    /// The event encoded with the identity of `snapshot`, and whether it carries any of it.
    func encode(with snapshot: EncodingSnapshot) -> (EncodedEvent, usedIdentity: Bool) {
        let json = snapshot.encoder.encode(make(snapshot.identity))
        let event = EncodedEvent(
            json: json, messageId: EventMessageID(generated: messageId, hostGiven: fields.messageId),
            isAwaited: fields.isAwaited)
        return (event, usesInstanceIdentity)
    }
}

/// One server call as its caller gave it (``BinobanServerEvents``, ``BinobanAwaitedServerEvents``).
struct ServerCall {
    var kind: PendingEvent.Kind
    /// The event, page or screen name; empty for the other kinds.
    var name: String
    /// `properties` or `traits` as given.
    var payload: JSONValue
    /// `nil`: the instance's anonymousId and userId.
    var identity: BinobanEventIdentity?
    var fields: BinobanMessageFields
    var category: String? = nil
    var groupId: String? = nil
    var previousId: String? = nil

    /// The `properties` or `traits` sent: `{}` when not an object; nothing for an alias.
    var body: JSONValue {
        switch kind {
        case .alias: .null
        default: payload.objectValue == nil ? [:] : payload
        }
    }
}
