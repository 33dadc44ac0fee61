/// One thing that happened to a Binoban notification, as handed to the interaction handler.
///
/// ```swift
/// final class RoutingHandler: DefaultNotificationInteractionHandler {
///     override func onNotificationInteraction(interaction: NotificationInteraction) {
///         super.onNotificationInteraction(interaction: interaction)  // keeps the SDK's tracking
///         if interaction.type == .clicked, let uri = interaction.uri { router.open(uri) }
///     }
/// }
/// ```
public struct NotificationInteraction: Sendable, Hashable {
    /// The notification's unique id.
    public var notificationUuid: String
    /// What happened.
    public var type: NotificationInteractionType
    /// The tapped button's action id; `nil` for a body tap and for every other type.
    public var actionId: String?
    /// The target to route: the main uri for a body tap and for delivered, the button's own uri (or `nil`) for
    /// a button tap.
    public var uri: String?
    /// The payload's custom data with the namespace prefix removed, or `nil` when it has none.
    public var customData: [String: String]?
    /// Why a ``NotificationInteractionType/failed`` interaction failed.
    public var reason: String?

    /// Creates an interaction.
    public init(
        notificationUuid: String,
        type: NotificationInteractionType,
        actionId: String? = nil,
        uri: String? = nil,
        customData: [String: String]? = nil,
        reason: String? = nil
    ) {
        self.notificationUuid = notificationUuid
        self.type = type
        self.actionId = actionId
        self.uri = uri
        self.customData = customData
        self.reason = reason
    }

    /// The analytics event properties: `notificationUuid`, and `actionId`, `uri`, `reason` and `customData`
    /// (an object of strings) when present. Absent fields are omitted, never `null`.
    package var eventProperties: JSONValue {
        var properties: [String: JSONValue] = ["notificationUuid": .string(notificationUuid)]
        if let actionId { properties["actionId"] = .string(actionId) }
        if let uri { properties["uri"] = .string(uri) }
        if let reason { properties["reason"] = .string(reason) }
        if let customData, !customData.isEmpty {
            properties["customData"] = .object(customData.mapValues { .string($0) })
        }
        return .object(properties)
    }
}
