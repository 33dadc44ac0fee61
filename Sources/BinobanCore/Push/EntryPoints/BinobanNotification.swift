/// The token entry point the iOS SDK spells `Notification.shared.refreshToken(token:)`.
///
/// Named `BinobanNotification` because a type named `Notification` would clash with `Foundation.Notification`
/// in every file that imports Foundation (spec §i Q13). Prefer ``BinobanNotifications/shared``.
///
/// ```swift
/// BinobanNotification.shared.refreshToken(token: fcmToken)
/// ```
public final class BinobanNotification: Sendable {
    /// Forwards to ``BinobanNotifications/shared``.
    public static let shared = BinobanNotification(notifications: .shared)

    private let notifications: BinobanNotifications

    /// Creates a token entry point over `notifications`.
    public init(notifications: BinobanNotifications) {
        self.notifications = notifications
    }

    /// Registers a token; the same path as ``BinobanNotifications/onNewToken(token:)``.
    public func refreshToken(token: String) {
        notifications.refreshToken(token: token)
    }
}
