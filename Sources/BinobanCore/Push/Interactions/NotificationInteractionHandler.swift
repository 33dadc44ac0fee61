/// Receives every notification interaction, on whatever thread or task reported it.
///
/// Most hosts subclass ``DefaultNotificationInteractionHandler`` and call `super`, which keeps the SDK's
/// tracking. A handler that conforms to this protocol directly replaces the tracking: delivered and clicked
/// events stop. The call must return promptly; hop to your own queue or actor for UI work.
public protocol NotificationInteractionHandler: Sendable {
    /// Called once for each interaction dispatched while this handler is installed.
    func onNotificationInteraction(interaction: NotificationInteraction)
}

/// The handler installed by default: it tracks each interaction as a `bb_notification_*` event.
///
/// Subclass it and call `super` to add routing while keeping the tracking; leave `super` out and tracking
/// stops (the iOS SDK's documented contract). It never opens URLs: read ``NotificationInteraction/uri``.
///
/// ```swift
/// final class AppInteractionHandler: DefaultNotificationInteractionHandler, @unchecked Sendable {
///     override func onNotificationInteraction(interaction: NotificationInteraction) {
///         super.onNotificationInteraction(interaction: interaction)
///         print("\(interaction.type.name) \(interaction.notificationUuid)")
///     }
/// }
/// NotificationInteractionManager.shared.setHandler(handler: AppInteractionHandler())
/// ```
///
/// The class is `@unchecked Sendable` because an open class cannot be checked: its own state is one immutable
/// reference to a thread-safe sink. Subclasses that add mutable state must guard it themselves
/// (Docs/Decisions/0405).
open class DefaultNotificationInteractionHandler: NotificationInteractionHandler, @unchecked Sendable {
    private let sink: NotificationEventSink

    /// Creates a handler that tracks through ``BinobanNotifications/shared``.
    public init() {
        sink = BinobanNotifications.shared.sink
    }

    /// Creates a handler that tracks through `notifications` (an instance created for a test or a server).
    public init(notifications: BinobanNotifications) {
        sink = notifications.sink
    }

    init(sink: NotificationEventSink) {
        self.sink = sink
    }

    /// Tracks the interaction as `bb_notification_delivered`, `…_clicked`, `…_closed`, `…_failed` or
    /// `…_opened` through the attached Binoban instance.
    open func onNotificationInteraction(interaction: NotificationInteraction) {
        sink.track(interaction)
    }
}
