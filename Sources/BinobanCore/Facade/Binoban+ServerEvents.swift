extension Binoban {
    /// Calls for servers that the iOS SDK does not offer: the seed's public surface is `track`, `identify`,
    /// `flush` and `reset` ("screen(), group(), and alias() … are not part of the public iOS API").
    ///
    /// ```swift
    /// binoban.server.screen(title: "Checkout", properties: ["step": 2])
    /// ```
    ///
    /// Listed in the porting guide's "Every difference" table; an app ported from iOS never needs it.
    public var server: BinobanServerEvents { BinobanServerEvents(binoban: self) }
}

/// The server extension of ``Binoban``: events the iOS SDK keeps internal, reached through ``Binoban/server``.
public struct BinobanServerEvents: Sendable {
    let binoban: Binoban

    init(binoban: Binoban) {
        self.binoban = binoban
    }

    /// Records a screen view, delivered as a track event named `screen` with `title` in `properties.name`.
    public func screen(title: String, properties: JSONValue = [:]) {
        binoban.track(name: "screen", properties: Self.screenProperties(title, properties))
    }

    /// Records a screen view with properties given as `[String: Any]`; values JSON cannot carry are dropped and
    /// reported.
    public func screen(title: String, properties: [String: Any]) {
        screen(title: title, properties: binoban.convert(properties))
    }

    /// The screen event's properties: `properties` (an object, or none) with `name` set to `title`.
    static func screenProperties(_ title: String, _ properties: JSONValue) -> JSONValue {
        var members = properties.objectValue ?? [:]
        members["name"] = .string(title)
        return .object(members)
    }
}
