/// What happened to a notification.
///
/// ``name`` is the upper-case spelling of the iOS SDK (`DELIVERED`, `CLICKED`, …), for logs written as
/// `interaction.type.name`.
public enum NotificationInteractionType: String, Sendable, Hashable, CaseIterable {
    /// The notification reached the device (reported from the foreground-presentation callback).
    case delivered = "DELIVERED"
    /// The body or an action button was tapped.
    case clicked = "CLICKED"
    /// The notification was dismissed.
    case closed = "CLOSED"
    /// The notification could not be displayed; ``NotificationInteraction/reason`` says why.
    case failed = "FAILED"
    /// The app was opened from the notification by a path other than a tap callback.
    case opened = "OPENED"

    /// The upper-case name: `DELIVERED`, `CLICKED`, `CLOSED`, `FAILED` or `OPENED`.
    public var name: String { rawValue }

    /// The analytics event tracked for this interaction, such as `bb_notification_clicked`.
    package var eventName: String {
        switch self {
        case .delivered: return "bb_notification_delivered"
        case .clicked: return "bb_notification_clicked"
        case .closed: return "bb_notification_closed"
        case .failed: return "bb_notification_failed"
        case .opened: return "bb_notification_opened"
        }
    }
}
