import BinobanCore
import Foundation
import FuzzSupport
import SDKCoreCommon

// Push payloads through every public entry point of the notification layer: a userInfo parsed from the input
// (JSON, or the input as loose [AnyHashable: Any]), a key table that may have problems, and bounds that may be
// huge. Nothing may trap; every display task must finish.

private final class Target: BinobanNotificationTarget {
    func track(name: String, properties: JSONValue) { _ = properties.jsonString() }
    func setDeviceToken(token: String) {}
}

private struct Presenter: NotificationPresenter {
    let failing: Bool

    func requestPermission(_ request: NotificationPermissionRequest) async -> NotificationPermissionResult {
        NotificationPermissionResult(status: failing ? .denied : .granted)
    }

    func display(_ request: NotificationDisplayRequest) async -> NotificationDisplayResult {
        _ = request.userInfo.jsonString()
        return NotificationDisplayResult(outcome: failing ? .failed(reason: "x") : .displayed)
    }
}

private let names = [
    "source", "binoban_notification_uuid", "binoban_title", "binoban_body", "binoban_uri", "binoban_actions",
    "id", "title", "uri", "binoban_action_uri_", "binoban_cd_", "", "binoban_",
]

private func keys(_ input: inout FuzzInput) -> BinobanPushPayloadKeys {
    var keys = BinobanPushPayloadKeys.standard
    guard input.bool() else { return keys }
    let paths: [WritableKeyPath<BinobanPushPayloadKeys, String>] = [
        \.source, \.notificationUuid, \.title, \.body, \.uri, \.actions, \.actionId, \.actionTitle, \.actionUri,
        \.actionUriPrefix, \.customDataPrefix,
    ]
    for _ in 0..<input.choice(4) { keys[keyPath: paths[input.choice(paths.count)]] = names[input.choice(names.count)] }
    return keys
}

/// Runs one input (what it covers is at the top of this file); always returns 0, as libFuzzer requires.
@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPushPayload(_ data: UnsafePointer<UInt8>?, _ size: Int) -> Int32 {
    var input = FuzzInput(data, size)
    let keys = keys(&input)
    let huge = input.bool()
    let options = BinobanNotifications.Options(
        replayCapacity: huge ? .max : 4, deliveredMemory: huge ? .max : 4, pendingEventCapacity: huge ? .max : 4,
        keys: keys)
    let failing = input.bool()
    let actionId: String? = input.bool() ? input.string(limit: 16) : nil
    let dismissed = input.bool()
    let text = String(decoding: input.rest(), as: UTF8.self)
    let parsed =
        (try? JSONValue(parsing: text)) ?? [
            "source": "binoban", "binoban_notification_uuid": "n", "binoban_actions": .string(text),
        ]

    _ = BinobanPushPayload.parse(parsed, keys: keys).payload?.userInfo(keys: keys)
    runBlocking {
        let notifications = BinobanNotifications(presenter: Presenter(failing: failing), options: options)
        notifications.attach(Target())
        _ = await notifications.initializeNotifications(configuration: NotificationPlatformConfigurationIos()).value
        _ = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: parsed).value
        notifications.onWillPresentForwarded(userInfo: parsed)
        notifications.onDidReceiveForwarded(userInfo: parsed, actionId: actionId, dismissed: dismissed)
        notifications.onNotificationOpened(userInfo: parsed)
        // The loosely typed forms, as UIKit hands userInfo over.
        var loose: [AnyHashable: Any] = [:]
        for (key, value) in parsed.objectValue ?? [:] { loose[AnyHashable(key)] = value.stringValue ?? value }
        loose[AnyHashable(7)] = Date(timeIntervalSince1970: .nan)
        _ = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: loose).value
        notifications.onWillPresentForwarded(userInfo: loose)
        notifications.onDidReceiveForwarded(userInfo: loose, actionId: actionId, dismissed: dismissed)
        notifications.onNotificationOpened(userInfo: loose)
        _ = notifications.interactionManager.drainPendingInteractions()
    }
    return 0
}
