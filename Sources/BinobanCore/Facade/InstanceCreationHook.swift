/// The single point where every newly created, usable ``Binoban`` instance is announced.
///
/// The push layer's shared facade (`BinobanNotifications.shared`) binds the first live instance, weakly, so a
/// token or an interaction that arrived before any instance existed is delivered now, and an instance the
/// host releases does not stay alive because of it. Called by the factory after the instance is built and
/// before it is returned; never blocks.
func binobanInstanceWasCreated(_ instance: Binoban) {
    BinobanNotifications.shared.attachIfUnbound(WeakBinobanNotificationTarget(instance))
}

/// Forwards the notification layer's events to a Binoban instance without keeping it alive.
final class WeakBinobanNotificationTarget: ExpiringNotificationTarget {
    private weak let instance: Binoban?

    init(_ instance: Binoban) {
        self.instance = instance
    }

    var isExpired: Bool { instance == nil }

    func track(name: String, properties: JSONValue) {
        instance?.track(name: name, properties: properties)
    }

    func setDeviceToken(token: String) {
        instance?.setDeviceToken(token: token)
    }
}
