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

    /// Stamps a server call and hands it to the intake; `false` when the instance is disabled, paused or
    /// stopped. `identity` `nil` takes the instance's anonymousId and userId (``BinobanServerEvents``'s
    /// `screen(title:properties:)`). Never encoded by the caller: server calls are encoded by the writer.
    @discardableResult
    func acceptServerCall(_ call: ServerCall) -> Bool {
        guard let runtime else { return false }
        let accepted = runtime.intake.accept(serverEvent(call, awaited: false, runtime: runtime).make)
        if debugLogIsOn {
            debugLog.event(
                call.kind, name: call.name, fieldCount: call.body.objectValue?.count ?? 0, accepted: accepted)
        }
        return accepted
    }

    /// Stamps a server call, hands it to the intake (waiting for room like `trackAwaitingRoom`) and waits until
    /// the pipeline says what became of it (``BinobanServerEvents/awaitingDelivery``).
    func awaitServerCall(_ call: ServerCall) async -> BinobanEventOutcome {
        guard let runtime else { return .notAccepted }
        let event = serverEvent(call, awaited: true, runtime: runtime)
        // Registered before the event is handed over: its outcome may come before this task waits.
        let token = runtime.outcomeWaiters.register(call.fields.hostMessageId ?? event.messageId.text)
        let admission = await runtime.intake.acceptWaitingForRoom(awaited: true, event.make)
        runtime.outcomeWaiters.noteAdmission()
        if debugLogIsOn {
            debugLog.event(
                call.kind, name: call.name, fieldCount: call.body.objectValue?.count ?? 0,
                accepted: admission == .accepted)
        }
        let refused: BinobanEventOutcome
        switch admission {
        case .accepted: return await runtime.outcomeWaiters.wait(token)
        case .paused: refused = .finished(.dropped(.paused))
        case .overflowed: refused = .finished(.dropped(.writeStageOverflow))
        case .closed: refused = .notAccepted
        case .cancelled: refused = .cancelled
        }
        runtime.outcomeWaiters.withdraw(token, settledAs: refused)
        return refused
    }

    /// The event of a server call, built under the intake's lock from the instance's identity of that moment,
    /// and the id generated for it (sent unless the caller gave its own `messageId`).
    private func serverEvent(
        _ call: ServerCall, awaited: Bool, runtime: BinobanRuntime
    ) -> (messageId: MessageID, make: (IdentityState) -> PendingEvent) {
        let hostMessageId = call.fields.hostMessageId
        let messageId = hostMessageId == nil ? MessageID.random(from: runtime.random) : MessageID(high: 0, low: 0)
        let now = call.fields.timestampMillis ?? configuration.wallClock.currentMillisecondsSince1970()
        let serverFields = PendingEvent.ServerFields(
            messageId: hostMessageId, context: call.fields.context, integrations: call.fields.integrations,
            category: call.category, groupId: call.groupId, previousId: call.previousId, isAwaited: awaited)
        let (kind, name, body, identity) = (call.kind, call.name, call.body, call.identity)
        return (
            messageId,
            { current in
                let ids = EventIdentityRule.ids(for: kind, given: identity, instance: current)
                return PendingEvent(
                    kind: kind, name: name, payload: body, messageId: messageId, timestampMillis: now,
                    anonymousId: ids.anonymousId, userId: ids.userId, deviceToken: nil, server: serverFields)
            }
        )
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
