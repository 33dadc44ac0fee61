/// An app interaction handler that records each interaction as an `interaction` output and, when `callsSuper`,
/// keeps the SDK's tracking by calling the default handler.
final class RecordingInteractionHandler: DefaultNotificationInteractionHandler {
    private let log: OutputLog
    private let callsSuper: Bool

    init(notifications: BinobanNotifications, log: OutputLog, callsSuper: Bool) {
        self.log = log
        self.callsSuper = callsSuper
        super.init(notifications: notifications)
    }

    override func onNotificationInteraction(interaction: NotificationInteraction) {
        var entry = Self.describe(interaction)
        entry["type"] = "interaction"
        log.append(entry)
        if callsSuper { super.onNotificationInteraction(interaction: interaction) }
    }

    /// The output fields of one interaction: `kind` (the `NotificationInteractionType` name), `notificationUuid`,
    /// and `actionId`, `uri`, `customData` and `reason` when present.
    static func describe(_ interaction: NotificationInteraction) -> [String: JSONValue] {
        var entry: [String: JSONValue] = [
            "kind": .string(interaction.type.name), "notificationUuid": .string(interaction.notificationUuid),
        ]
        if let actionId = interaction.actionId { entry["actionId"] = .string(actionId) }
        if let uri = interaction.uri { entry["uri"] = .string(uri) }
        if let reason = interaction.reason { entry["reason"] = .string(reason) }
        if let customData = interaction.customData {
            entry["customData"] = .object(customData.mapValues { .string($0) })
        }
        return entry
    }
}
