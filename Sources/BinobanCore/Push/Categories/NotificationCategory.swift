/// A platform notification category: a set of action buttons shown with a notification.
///
/// Mirrors `UNNotificationCategory` with only what the SDK uses, so the core stays platform-free.
public struct NotificationCategory: Sendable, Hashable {
    /// The category identifier. Identifiers starting with
    /// ``NotificationCategoryRegistry/binobanIdentifierPrefix`` belong to the SDK; all others to the host.
    public var identifier: String
    /// The buttons, in display order.
    public var actions: [NotificationAction]
    /// Whether the platform reports a dismissal (iOS `.customDismissAction`); needed for `CLOSED` on iOS.
    public var reportsDismissal: Bool

    /// Creates a category.
    public init(identifier: String, actions: [NotificationAction] = [], reportsDismissal: Bool = false) {
        self.identifier = identifier
        self.actions = actions
        self.reportsDismissal = reportsDismissal
    }
}

/// One button of a notification category (`UNNotificationAction`: an id and a title only).
public struct NotificationAction: Sendable, Hashable {
    /// The action id the platform reports when the button is tapped.
    public var identifier: String
    /// The button title.
    public var title: String

    /// Creates an action.
    public init(identifier: String, title: String) {
        self.identifier = identifier
        self.title = title
    }
}
