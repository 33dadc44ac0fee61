/// What to ask for when requesting notification permission.
public struct NotificationPermissionRequest: Sendable, Hashable {
    /// Ask to show alerts.
    public var alert: Bool
    /// Ask to play sounds.
    public var sound: Bool
    /// Ask to badge the app icon.
    public var badge: Bool

    /// Creates a request; by default asks for alerts, sounds and badges.
    public init(alert: Bool = true, sound: Bool = true, badge: Bool = true) {
        self.alert = alert
        self.sound = sound
        self.badge = badge
    }
}

/// The answer to a permission request.
public struct NotificationPermissionResult: Sendable, Hashable {
    /// The user's decision, or that the platform has no notification permission at all.
    public enum Status: Sendable, Hashable {
        /// The user allowed notifications.
        case granted
        /// The user declined, or an earlier decision stands.
        case denied
        /// The platform cannot show notifications (a server, Linux).
        case unavailable
    }

    /// The outcome.
    public var status: Status

    /// Creates a result.
    public init(status: Status) {
        self.status = status
    }
}
