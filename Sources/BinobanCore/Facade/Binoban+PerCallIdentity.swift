extension Binoban {
    /// Records an event with properties given as `[String: Any]` and the identity given for this event only;
    /// values JSON cannot carry are dropped and reported, and the instance's identity is unchanged.
    public func track(name: String, properties: [String: Any], as identity: BinobanEventIdentity) {
        track(name: name, properties: convert(properties), as: identity)
    }

    /// Records an identify event for the person in `identity` with `traits`, for server hosts that act on behalf
    /// of many users: the event carries `identity.userId` (and its anonymousId, or the instance's), and the
    /// instance's own userId, traits and stored identity are not touched. Traits that are not an object are
    /// sent as `{}`, as `identify(userId:traits:)` does.
    public func identify(traits: JSONValue = [:], as identity: BinobanEventIdentity) {
        accept(.identify, name: "", payload: traits.objectValue == nil ? [:] : traits, identity: identity)
    }

    /// Records an identify event for the person in `identity` with traits given as `[String: Any]`; values JSON
    /// cannot carry are dropped and reported.
    public func identify(traits: [String: Any], as identity: BinobanEventIdentity) {
        identify(traits: convert(traits), as: identity)
    }
}

extension BinobanServerEvents {
    /// Records a screen view for the person in `identity` only (a track event named `screen` with `title` in
    /// `properties.name`); the instance's identity is unchanged.
    public func screen(title: String, properties: JSONValue = [:], as identity: BinobanEventIdentity) {
        binoban.track(name: "screen", properties: Self.screenProperties(title, properties), as: identity)
    }

    /// Records a screen view for the person in `identity` with properties given as `[String: Any]`; values JSON
    /// cannot carry are dropped and reported.
    public func screen(title: String, properties: [String: Any], as identity: BinobanEventIdentity) {
        screen(title: title, properties: binoban.convert(properties), as: identity)
    }
}
