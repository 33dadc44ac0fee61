import BinobanCore
import Testing

/// Untrusted inputs of the notification layer that would trap, abort or stall it.
@Suite("Push layer robustness")
struct PushRobustnessTests {
    private static func keys(source: String = "source", actionTitle: String = "title") -> BinobanPushPayloadKeys {
        var keys = BinobanPushPayloadKeys.standard
        keys.source = source
        keys.actionTitle = actionTitle
        return keys
    }

    @Test("The standard keys have no problems")
    func standardKeysAreUsable() {
        #expect(BinobanPushPayloadKeys.standard.problems.isEmpty)
    }

    @Test("Equal names, empty names and overlapping prefixes are problems")
    func keyProblemsAreFound() {
        var keys = BinobanPushPayloadKeys.standard
        keys.source = keys.notificationUuid
        keys.actionId = keys.actionTitle
        keys.uri = ""
        keys.customDataPrefix = "binoban_"
        let problems = keys.problems
        #expect(problems.contains("notificationUuid and source are the same name"))
        #expect(problems.contains("actionTitle and actionId are the same name"))
        #expect(problems.contains("uri is empty"))
        #expect(problems.contains("actionUriPrefix and customDataPrefix start with one another"))
        #expect(problems.contains { $0.hasPrefix("title starts with customDataPrefix") })
    }

    /// Before: `[keys.source: …, keys.notificationUuid: …]` trapped with "Dictionary literal contains duplicate
    /// keys" when the two names were equal.
    @Test("userInfo(keys:) never traps on colliding names")
    func userInfoWithCollidingKeys() {
        var keys = BinobanPushPayloadKeys.standard
        keys.notificationUuid = keys.source
        keys.actionTitle = keys.actionId
        let payload = BinobanPushPayload(
            notificationUuid: "n-1", actions: [BinobanPushAction(id: "a", title: "A", uri: "app://a")])
        let userInfo = payload.userInfo(keys: keys)
        #expect(userInfo["source"] == "n-1")
    }

    /// Before: the display path built the same literal and trapped; now the layer keeps the standard keys and
    /// says why.
    @Test("A layer created with colliding keys reports them and uses the standard keys")
    func layerWithCollidingKeys() async {
        var keys = BinobanPushPayloadKeys.standard
        keys.source = keys.notificationUuid
        let presenter = ScriptedPresenter()
        let (notifications, target, diagnostics) = makeAttachedLayer(presenter: presenter, options: .init(keys: keys))
        #expect(diagnostics.codes == [.invalidPayloadKeys])
        #expect(diagnostics.all.first?.message.contains("notificationUuid and source are the same name") == true)
        #expect(notifications.options.keys == .standard)
        notifications.initializeNotifications(configuration: NotificationPlatformConfigurationIos())
        let result = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: binobanUserInfo()).value
        #expect(result.outcome == .displayed)
        notifications.onWillPresentForwarded(userInfo: binobanUserInfo())
        #expect(target.eventNames == ["bb_notification_delivered"])
    }

    /// Before: `Options(replayCapacity: Int.max)` made the replay ring allocate `Int.max` slots and the process
    /// abort; the recent-ids ring did the same with `deliveredMemory`.
    @Test("Huge bounds are capped and allocate nothing up front")
    func hugeBounds() {
        let options = BinobanNotifications.Options(
            replayCapacity: .max, deliveredMemory: .max, pendingEventCapacity: .max)
        #expect(options.replayCapacity == BinobanNotifications.Options.maximumCapacity)
        var mutated = BinobanNotifications.Options()
        mutated.replayCapacity = .max
        mutated.deliveredMemory = .max
        mutated.pendingEventCapacity = .min
        let (notifications, target, _) = makeAttachedLayer(options: mutated)
        #expect(notifications.options.replayCapacity == BinobanNotifications.Options.maximumCapacity)
        #expect(notifications.options.deliveredMemory == BinobanNotifications.Options.maximumCapacity)
        #expect(notifications.options.pendingEventCapacity == 1)
        for index in 0..<3 { notifications.onWillPresentForwarded(userInfo: binobanUserInfo(uuid: "n-\(index)")) }
        notifications.onWillPresentForwarded(userInfo: binobanUserInfo(uuid: "n-0"))
        #expect(target.eventNames.count == 3)
        #expect(notifications.interactionManager.drainPendingInteractions().count == 3)
    }

    /// Before: the `binoban_actions` text went through `JSONDecoder`, whose cost grew with the square of the
    /// nesting (seconds for 500 nested arrays), and nothing said why the buttons were missing.
    @Test("A binoban_actions text over the limits is rejected with a diagnostic")
    func actionsTextOverTheLimits() {
        for text in [
            String(repeating: "[", count: 500) + String(repeating: "]", count: 500),
            "[" + String(repeating: " ", count: 70_000) + "]",
        ] {
            var userInfo = binobanUserInfo().objectValue ?? [:]
            userInfo["binoban_actions"] = .string(text)
            let result = BinobanPushPayload.parse(.object(userInfo))
            #expect(result.payload?.actions == [])
            #expect(result.diagnostics.map(\.code) == [.invalidField])
            #expect(result.diagnostics.first?.message.contains("rejected as JSON text") == true)
        }
    }
}
