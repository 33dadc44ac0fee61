/// A notification presenter that answers from the scenario's configuration and records every call as a
/// `permissionRequest` or `display` output.
struct ScriptedNotificationPresenter: NotificationPresenter {
    let display: BinobanScenario.DisplayAnswer
    let permission: NotificationPermissionResult.Status
    let log: OutputLog

    func requestPermission(_ request: NotificationPermissionRequest) async -> NotificationPermissionResult {
        log.append([
            "type": "permissionRequest", "alert": .bool(request.alert), "sound": .bool(request.sound),
            "badge": .bool(request.badge),
        ])
        return NotificationPermissionResult(status: permission)
    }

    func display(_ request: NotificationDisplayRequest) async -> NotificationDisplayResult {
        var entry: [String: JSONValue] = [
            "type": "display", "notificationUuid": .string(request.notificationUuid),
            "category": .string(request.category.identifier),
            "actions": .array(
                request.category.actions.map { ["id": .string($0.identifier), "title": .string($0.title)] }),
            "reportsDismissal": .bool(request.category.reportsDismissal), "userInfo": request.userInfo,
        ]
        if let title = request.title { entry["title"] = .string(title) }
        if let body = request.body { entry["body"] = .string(body) }
        if let soundName = request.soundName { entry["soundName"] = .string(soundName) }
        log.append(entry)
        switch display {
        case .displayed: return NotificationDisplayResult(outcome: .displayed)
        case .notDisplayed(let reason): return NotificationDisplayResult(outcome: .notDisplayed(reason: reason))
        case .failed(let reason): return NotificationDisplayResult(outcome: .failed(reason: reason))
        }
    }
}
