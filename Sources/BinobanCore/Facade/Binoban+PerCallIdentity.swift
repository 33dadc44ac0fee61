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
    func acceptServerCall(
        _ kind: PendingEvent.Kind, name: String, payload: JSONValue, identity: BinobanEventIdentity?,
        fields: BinobanMessageFields, category: String? = nil, groupId: String? = nil, previousId: String? = nil
    ) -> Bool {
        guard let runtime else { return false }
        let hostMessageId = fields.hostMessageId
        let messageId = hostMessageId == nil ? MessageID.random(from: runtime.random) : MessageID(high: 0, low: 0)
        let now = fields.timestampMillis ?? configuration.wallClock.currentMillisecondsSince1970()
        let serverFields = PendingEvent.ServerFields(
            messageId: hostMessageId, context: fields.context, integrations: fields.integrations,
            category: category, groupId: groupId, previousId: previousId)
        let body: JSONValue
        switch kind {
        case .alias: body = .null
        default: body = payload.objectValue == nil ? [:] : payload
        }
        let accepted = runtime.intake.accept { current in
            let ids = EventIdentityRule.ids(for: kind, given: identity, instance: current)
            return PendingEvent(
                kind: kind, name: name, payload: body, messageId: messageId, timestampMillis: now,
                anonymousId: ids.anonymousId, userId: ids.userId, deviceToken: nil, server: serverFields)
        }
        if debugLogIsOn {
            debugLog.event(kind, name: name, fieldCount: body.objectValue?.count ?? 0, accepted: accepted)
        }
        return accepted
    }
}
