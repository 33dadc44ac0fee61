extension BinobanServerEvents {
    /// The same server calls, each awaiting what became of its one event: uploaded, rejected by the ingest, or
    /// dropped (with the reason), as the delivery observer would report it.
    ///
    /// ```swift
    /// let user = BinobanEventIdentity(userId: "user-1")
    /// let outcome = await binoban.server.awaitingDelivery.track(
    ///     name: "Order Completed", properties: ["total": 49.99], as: user,
    ///     fields: BinobanMessageFields(messageId: "order-1042"))
    /// if case .finished(.uploaded) = outcome {
    ///     // the ingest has the event
    /// }
    /// ```
    ///
    /// For the hosts that need one event's fate (a payment, an audit record); everything else is cheaper with
    /// the plain calls and a ``Configuration/deliveryObserver``. Each call waits for room in the write stage, as
    /// ``Binoban/trackAwaitingRoom(name:properties:)`` does, so it is never dropped there as the newest event;
    /// then it returns when its batch is answered or the event is dropped, so under the default configuration it
    /// returns after the next flush (`flushAt` events or `flushInterval`). From the first awaited call on, the
    /// instance keeps each event's message id through its pipeline, as it does with a delivery observer.
    ///
    /// Cancelling the task returns ``BinobanEventOutcome/cancelled`` at once; the event goes on (it is sent as
    /// usual), unless it was still waiting for room, when it is not taken at all.
    public var awaitingDelivery: BinobanAwaitedServerEvents { BinobanAwaitedServerEvents(binoban: binoban) }
}

/// The server calls of ``BinobanServerEvents``, each awaiting its event's outcome; reached through
/// ``BinobanServerEvents/awaitingDelivery``. Properties and traits are `JSONValue`s (`JSONValue.convert(_:)`
/// turns a `[String: Any]` into one, saying what it dropped).
public struct BinobanAwaitedServerEvents: Sendable {
    let binoban: Binoban

    /// Records a track event named `name` for the person in `identity`, and waits for its outcome.
    public func track(
        name: String, properties: JSONValue = [:], as identity: BinobanEventIdentity,
        fields: BinobanMessageFields = BinobanMessageFields()
    ) async -> BinobanEventOutcome {
        await binoban.awaitServerCall(
            ServerCall(kind: .track, name: name, payload: properties, identity: identity, fields: fields))
    }

    /// Records an identify event for the person in `identity` with `traits`, and waits for its outcome.
    public func identify(
        traits: JSONValue = [:], as identity: BinobanEventIdentity,
        fields: BinobanMessageFields = BinobanMessageFields()
    ) async -> BinobanEventOutcome {
        await binoban.awaitServerCall(
            ServerCall(kind: .identify, name: "", payload: traits, identity: identity, fields: fields))
    }

    /// Records a page view (`"type":"page"`), and waits for its outcome.
    public func page(
        name: String? = nil, category: String? = nil, properties: JSONValue = [:], as identity: BinobanEventIdentity,
        fields: BinobanMessageFields = BinobanMessageFields()
    ) async -> BinobanEventOutcome {
        await binoban.awaitServerCall(
            ServerCall(
                kind: .page, name: name ?? "", payload: properties, identity: identity, fields: fields,
                category: category))
    }

    /// Records a screen view (`"type":"screen"`), and waits for its outcome.
    public func screen(
        name: String? = nil, category: String? = nil, properties: JSONValue = [:], as identity: BinobanEventIdentity,
        fields: BinobanMessageFields = BinobanMessageFields()
    ) async -> BinobanEventOutcome {
        await binoban.awaitServerCall(
            ServerCall(
                kind: .screen, name: name ?? "", payload: properties, identity: identity, fields: fields,
                category: category))
    }

    /// Records that the person in `identity` belongs to the group `groupId`, and waits for its outcome.
    public func group(
        groupId: String, traits: JSONValue = [:], as identity: BinobanEventIdentity,
        fields: BinobanMessageFields = BinobanMessageFields()
    ) async -> BinobanEventOutcome {
        await binoban.awaitServerCall(
            ServerCall(kind: .group, name: "", payload: traits, identity: identity, fields: fields, groupId: groupId))
    }

    /// Records that the person known as `previousId` is `userId`, and waits for its outcome.
    public func alias(
        userId: String, previousId: String, fields: BinobanMessageFields = BinobanMessageFields()
    ) async -> BinobanEventOutcome {
        await binoban.awaitServerCall(
            ServerCall(
                kind: .alias, name: "", payload: .null, identity: BinobanEventIdentity(userId: userId), fields: fields,
                previousId: previousId))
    }
}
