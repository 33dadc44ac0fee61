extension Binoban {
    /// Calls for servers that the iOS SDK does not offer: the seed's public surface is `track`, `identify`,
    /// `flush` and `reset` ("screen(), group(), and alias() … are not part of the public iOS API").
    ///
    /// ```swift
    /// let user = BinobanEventIdentity(userId: "user-1")
    /// binoban.server.track(name: "Order Completed", properties: ["total": 49.99], as: user)
    /// binoban.server.page(name: "Pricing", properties: ["path": "/pricing"], as: user)
    /// binoban.server.group(groupId: "company-7", traits: ["plan": "pro"], as: user)
    /// binoban.server.alias(userId: "user-1", previousId: "anon-42")
    /// ```
    ///
    /// Listed in the porting guide's "Every difference" table; an app ported from iOS never needs it.
    public var server: BinobanServerEvents { BinobanServerEvents(binoban: self) }
}

/// The server extension of ``Binoban``: the Segment spec calls of a server client, reached through
/// ``Binoban/server``.
///
/// Each call carries the identity of one person (``BinobanEventIdentity``) and the message fields of one event
/// (``BinobanMessageFields``); the instance's own identity is neither used nor changed, except that an identity
/// with neither id falls back to the instance's anonymousId. A server call never carries the instance's
/// `context.device` id or push token: the instance is the server, not the person's device.
public struct BinobanServerEvents: Sendable {
    let binoban: Binoban

    init(binoban: Binoban) {
        self.binoban = binoban
    }

    /// Records a track event named `name` for the person in `identity`.
    public func track(
        name: String, properties: JSONValue = [:], as identity: BinobanEventIdentity,
        fields: BinobanMessageFields = BinobanMessageFields()
    ) {
        binoban.acceptServerCall(
            ServerCall(kind: .track, name: name, payload: properties, identity: identity, fields: fields))
    }

    /// Records a track event with properties given as `[String: Any]`; values JSON cannot carry are dropped and
    /// reported.
    public func track(
        name: String, properties: [String: Any], as identity: BinobanEventIdentity,
        fields: BinobanMessageFields = BinobanMessageFields()
    ) {
        track(name: name, properties: binoban.convert(properties), as: identity, fields: fields)
    }

    /// Records an identify event for the person in `identity` with `traits` (sent as `{}` when not an object).
    /// The instance's own userId, traits and stored identity are not touched.
    public func identify(
        traits: JSONValue = [:], as identity: BinobanEventIdentity,
        fields: BinobanMessageFields = BinobanMessageFields()
    ) {
        binoban.acceptServerCall(
            ServerCall(kind: .identify, name: "", payload: traits, identity: identity, fields: fields))
    }

    /// Records an identify event with traits given as `[String: Any]`; values JSON cannot carry are dropped and
    /// reported.
    public func identify(
        traits: [String: Any], as identity: BinobanEventIdentity, fields: BinobanMessageFields = BinobanMessageFields()
    ) {
        identify(traits: binoban.convert(traits), as: identity, fields: fields)
    }

    /// Records a page view (`"type":"page"`) with its `name` and `category` (each sent when given and not
    /// empty) and `properties`.
    public func page(
        name: String? = nil, category: String? = nil, properties: JSONValue = [:], as identity: BinobanEventIdentity,
        fields: BinobanMessageFields = BinobanMessageFields()
    ) {
        binoban.acceptServerCall(
            ServerCall(
                kind: .page, name: name ?? "", payload: properties, identity: identity, fields: fields,
                category: category))
    }

    /// Records a page view with properties given as `[String: Any]`; values JSON cannot carry are dropped and
    /// reported.
    public func page(
        name: String? = nil, category: String? = nil, properties: [String: Any], as identity: BinobanEventIdentity,
        fields: BinobanMessageFields = BinobanMessageFields()
    ) {
        page(name: name, category: category, properties: binoban.convert(properties), as: identity, fields: fields)
    }

    /// Records a screen view (`"type":"screen"`) with its `name` and `category` (each sent when given and not
    /// empty) and `properties`.
    public func screen(
        name: String? = nil, category: String? = nil, properties: JSONValue = [:], as identity: BinobanEventIdentity,
        fields: BinobanMessageFields = BinobanMessageFields()
    ) {
        binoban.acceptServerCall(
            ServerCall(
                kind: .screen, name: name ?? "", payload: properties, identity: identity, fields: fields,
                category: category))
    }

    /// Records a screen view with properties given as `[String: Any]`; values JSON cannot carry are dropped and
    /// reported.
    public func screen(
        name: String? = nil, category: String? = nil, properties: [String: Any], as identity: BinobanEventIdentity,
        fields: BinobanMessageFields = BinobanMessageFields()
    ) {
        screen(name: name, category: category, properties: binoban.convert(properties), as: identity, fields: fields)
    }

    /// Records that the person in `identity` belongs to the group `groupId`, with the group's `traits` (sent as
    /// `{}` when not an object).
    public func group(
        groupId: String, traits: JSONValue = [:], as identity: BinobanEventIdentity,
        fields: BinobanMessageFields = BinobanMessageFields()
    ) {
        binoban.acceptServerCall(
            ServerCall(kind: .group, name: "", payload: traits, identity: identity, fields: fields, groupId: groupId))
    }

    /// Records a group with traits given as `[String: Any]`; values JSON cannot carry are dropped and reported.
    public func group(
        groupId: String, traits: [String: Any], as identity: BinobanEventIdentity,
        fields: BinobanMessageFields = BinobanMessageFields()
    ) {
        group(groupId: groupId, traits: binoban.convert(traits), as: identity, fields: fields)
    }

    /// Records that the person known as `previousId` (an anonymousId or an earlier userId) is `userId`. The
    /// event carries no anonymousId; both ids are sent as given.
    public func alias(userId: String, previousId: String, fields: BinobanMessageFields = BinobanMessageFields()) {
        binoban.acceptServerCall(
            ServerCall(
                kind: .alias, name: "", payload: .null, identity: BinobanEventIdentity(userId: userId), fields: fields,
                previousId: previousId))
    }

    /// Records a screen view named `title` with the instance's anonymousId and userId: the call of the
    /// screen extension before the per-call ones, kept for hosts that record their own screens.
    public func screen(title: String, properties: JSONValue = [:]) {
        binoban.acceptServerCall(
            ServerCall(kind: .screen, name: title, payload: properties, identity: nil, fields: BinobanMessageFields()))
    }

    /// Records a screen view named `title` with properties given as `[String: Any]`; values JSON cannot carry
    /// are dropped and reported.
    public func screen(title: String, properties: [String: Any]) {
        screen(title: title, properties: binoban.convert(properties))
    }

    /// Records a screen view named `title` for the person in `identity`: the same as
    /// `screen(name:category:properties:as:fields:)` with `name: title`.
    public func screen(title: String, properties: JSONValue = [:], as identity: BinobanEventIdentity) {
        screen(name: title, properties: properties, as: identity)
    }

    /// Records a screen view named `title` for the person in `identity` with properties given as
    /// `[String: Any]`; values JSON cannot carry are dropped and reported.
    public func screen(title: String, properties: [String: Any], as identity: BinobanEventIdentity) {
        screen(name: title, properties: binoban.convert(properties), as: identity)
    }
}
