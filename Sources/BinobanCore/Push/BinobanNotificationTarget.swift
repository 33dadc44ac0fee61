/// What the notification layer needs from a Binoban instance.
public protocol BinobanNotificationTarget: Sendable {
    /// Tracks one event through the instance's normal queue.
    func track(name: String, properties: JSONValue)
    /// Registers the push token: sets `context.device.token` on later events and tracks `bb_notification_registered` with `{"token": token}`.
    func setDeviceToken(token: String)
}
