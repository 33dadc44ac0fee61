/// Receives every notification interaction.
///
/// Most hosts subclass ``DefaultNotificationInteractionHandler`` and call `super`, which keeps the SDK's
/// tracking. A handler that conforms to this protocol directly replaces the tracking: delivered and clicked
/// events stop. The call must return promptly; hop to your own queue or actor for UI work.
///
/// The protocol does not require `Sendable`: ``NotificationInteractionManager/setHandler(handler:)`` takes any
/// handler (the app may keep a reference to it) and calls it one interaction at a time, never concurrently, on the
/// thread of whichever forward is delivering (Docs/Decisions/0405). A handler with mutable state therefore needs
/// no lock for the SDK's calls; an app reads that state on the thread it forwards on (the main thread).
public protocol NotificationInteractionHandler {
    /// Called once for each interaction dispatched while this handler is installed.
    func onNotificationInteraction(interaction: NotificationInteraction)
}

/// The handler installed by default: it tracks each interaction as a `bb_notification_*` event.
///
/// Subclass it and call `super` to add routing while keeping the tracking; leave `super` out and tracking
/// stops (the iOS SDK's documented contract). It never opens URLs: read ``NotificationInteraction/uri``.
///
/// ```swift
/// class MyHandler: DefaultNotificationInteractionHandler {
///     override func onNotificationInteraction(interaction: NotificationInteraction) {
///         super.onNotificationInteraction(interaction: interaction)
///         print("\(interaction.type.name) \(interaction.notificationUuid)")
///     }
/// }
/// NotificationInteractionManager.shared.setHandler(handler: MyHandler())
/// ```
///
/// The class is not `Sendable`, so a subclass compiles under Swift 6 strict concurrency exactly as in the seed,
/// without restating a conformance: the manager takes any handler and never calls it concurrently
/// (Docs/Decisions/0405).
open class DefaultNotificationInteractionHandler: NotificationInteractionHandler {
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

/// Explicitly not `Sendable`: the manager it is installed in calls it one interaction at a time, on the forwarding
/// thread (``NotificationInteractionManager/setHandler(handler:)``).
@available(*, unavailable)
extension DefaultNotificationInteractionHandler: Sendable {}
