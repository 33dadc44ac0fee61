/// How the notification layer is configured at launch, spelled flat as in the iOS SDK.
///
/// ```swift
/// BinobanNotifications.shared.initializeNotifications(
///     configuration: NotificationPlatformConfigurationIos(askNotificationPermissionOnStart: false)
/// )
/// ```
public struct NotificationPlatformConfigurationIos: Sendable, Hashable {
    /// Whether to ask for notification permission as soon as the layer initializes. Defaults to `true`.
    public var askNotificationPermissionOnStart: Bool
    /// A sound file in the app bundle to play for displayed notifications; `nil` uses the system default.
    public var notificationSoundName: String?

    /// Creates a configuration with the iOS SDK's defaults.
    public init(askNotificationPermissionOnStart: Bool = true, notificationSoundName: String? = nil) {
        self.askNotificationPermissionOnStart = askNotificationPermissionOnStart
        self.notificationSoundName = notificationSoundName
    }
}
