import BinobanCore
import Testing

@Suite("Push entry points and the events they track")
struct PushEntryPointTests {
    @Test("onWillPresentForwarded reports delivered with the main uri and custom data")
    func willPresentReportsDelivered() {
        let (notifications, target, _) = makeAttachedLayer()
        notifications.onWillPresentForwarded(userInfo: binobanUserInfo(uuid: "n-1", customData: ["campaign": "x"]))
        #expect(target.eventNames == ["bb_notification_delivered"])
        #expect(
            target.events.first?.properties
                == ["notificationUuid": "n-1", "uri": "app://main", "customData": ["campaign": "x"]]
        )
    }

    @Test("Delivered is reported at most once per notification uuid")
    func deliveredOnce() {
        let (notifications, target, _) = makeAttachedLayer()
        for _ in 0..<3 {
            notifications.onWillPresentForwarded(userInfo: binobanUserInfo(uuid: "n-1"))
        }
        notifications.onWillPresentForwarded(userInfo: binobanUserInfo(uuid: "n-2"))
        notifications.onWillPresentForwarded(userInfo: binobanUserInfo(uuid: "n-1"))
        #expect(target.eventNames == ["bb_notification_delivered", "bb_notification_delivered"])
        #expect(target.events.map { $0.properties["notificationUuid"] } == ["n-1", "n-2"])
    }

    @Test("The delivered memory is bounded: a uuid is forgotten after the configured number of others")
    func deliveredMemoryBounded() {
        let (notifications, target, _) = makeAttachedLayer(options: .init(deliveredMemory: 4))
        for index in 0..<5 { notifications.onWillPresentForwarded(userInfo: binobanUserInfo(uuid: "n-\(index)")) }
        notifications.onWillPresentForwarded(userInfo: binobanUserInfo(uuid: "n-4"))  // still remembered
        notifications.onWillPresentForwarded(userInfo: binobanUserInfo(uuid: "n-0"))  // forgotten, reported again
        #expect(target.eventNames.count == 6)
    }

    @Test("Delivered is reported concurrently at most once per uuid")
    func deliveredOnceUnderConcurrency() async {
        let (notifications, target, _) = makeAttachedLayer()
        await withTaskGroup(of: Void.self) { group in
            for _ in 0..<8 {
                group.addTask {
                    for index in 0..<50 {
                        notifications.onWillPresentForwarded(userInfo: binobanUserInfo(uuid: "n-\(index)"))
                    }
                }
            }
        }
        let uuids = target.events.compactMap { $0.properties["notificationUuid"]?.stringValue }
        #expect(uuids.count == 50)
        #expect(Set(uuids).count == 50)
    }

    @Test("onApplicationDidReceiveRemoteNotification displays and never reports delivered")
    func displayDoesNotReportDelivered() async throws {
        let presenter = ScriptedPresenter()
        let (notifications, target, _) = makeAttachedLayer(presenter: presenter)
        notifications.initializeNotifications(
            configuration: .init(askNotificationPermissionOnStart: false, notificationSoundName: "ding.caf"))
        let userInfo = binobanUserInfo(
            uuid: "n-1",
            actions: [
                BinobanPushAction(id: "buy", title: "Buy", uri: "app://buy"), BinobanPushAction(id: "no", title: "No"),
            ]
        )
        let result = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: userInfo).value
        #expect(result.outcome == .displayed)
        #expect(target.calls.isEmpty)
        let request = try #require(presenter.displayRequests.first)
        #expect(request.notificationUuid == "n-1")
        #expect(request.title == "Title" && request.body == "Body" && request.soundName == "ding.caf")
        // One category per distinct button set: the identifier comes from the buttons, not the notification.
        #expect(
            request.category.identifier
                == NotificationCategoryRegistry.identifier(forActions: [
                    NotificationAction(identifier: "buy", title: "Buy"),
                    NotificationAction(identifier: "no", title: "No"),
                ]))
        #expect(
            request.category.actions == [
                NotificationAction(identifier: "buy", title: "Buy"), NotificationAction(identifier: "no", title: "No"),
            ])
        #expect(request.category.reportsDismissal)
        #expect(request.userInfo["binoban_action_uri_buy"] == "app://buy")
        #expect(BinobanPushPayload.parse(request.userInfo).payload == BinobanPushPayload.parse(userInfo).payload)
        #expect(request.userInfo == userInfo)
    }

    @Test("Display then foreground presentation of the same push reports delivered exactly once")
    func displayThenWillPresent() async {
        let presenter = ScriptedPresenter()
        let (notifications, target, _) = makeAttachedLayer(presenter: presenter)
        notifications.initializeNotifications(configuration: .init(askNotificationPermissionOnStart: false))
        let userInfo = binobanUserInfo(uuid: "n-9")
        _ = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: userInfo).value
        // iOS hands the displayed notification's userInfo (the request's) to willPresent, possibly twice.
        let shown = presenter.displayRequests.map(\.userInfo)
        for forwarded in shown + shown { notifications.onWillPresentForwarded(userInfo: forwarded) }
        #expect(target.eventNames == ["bb_notification_delivered"])
    }

    @Test("A push with more than three buttons is displayed with the first three, and the drop is reported")
    func displayCapsButtons() async throws {
        let presenter = ScriptedPresenter()
        let (notifications, _, diagnostics) = makeAttachedLayer(presenter: presenter)
        notifications.initializeNotifications(configuration: .init(askNotificationPermissionOnStart: false))
        let buttons: JSONValue = .array((0..<5).map { ["id": .string("b\($0)"), "title": "B"] })
        let userInfo: JSONValue = ["source": "binoban", "binoban_notification_uuid": "n", "binoban_actions": buttons]
        _ = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: userInfo).value
        let request = try #require(presenter.displayRequests.first)
        #expect(request.category.actions.map(\.identifier) == ["b0", "b1", "b2"])
        #expect(diagnostics.codes == [.extraActionsDropped])
    }

    @Test("A push without buttons is displayed with the shared dismissal-reporting category")
    func displayWithoutButtons() async throws {
        let presenter = ScriptedPresenter()
        let (notifications, _, _) = makeAttachedLayer(presenter: presenter)
        notifications.initializeNotifications(configuration: .init(askNotificationPermissionOnStart: false))
        _ = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: binobanUserInfo()).value
        let request = try #require(presenter.displayRequests.first)
        #expect(request.category == NotificationCategory(identifier: "binoban.default", reportsDismissal: true))
        #expect(request.soundName == nil)
    }

    @Test("A presenter failure reports failed with the presenter's reason")
    func displayFailureReportsFailed() async {
        let presenter = ScriptedPresenter(displayOutcome: .failed(reason: "permission_denied"))
        let (notifications, target, diagnostics) = makeAttachedLayer(presenter: presenter)
        notifications.initializeNotifications(configuration: .init(askNotificationPermissionOnStart: false))
        let result = await notifications.onApplicationDidReceiveRemoteNotification(
            userInfo: binobanUserInfo(customData: ["c": "1"])
        ).value
        #expect(result.outcome == .failed(reason: "permission_denied"))
        #expect(target.eventNames == ["bb_notification_failed"])
        #expect(
            target.events.first?.properties == [
                "notificationUuid": "n-1", "reason": "permission_denied", "customData": ["c": "1"],
            ])
        #expect(diagnostics.codes == [.displayFailed])
        #expect(notifications.interactionManager.drainPendingInteractions().map(\.type) == [.failed])
    }

    @Test("The no-op presenter shows nothing and reports no failure")
    func noOpPresenter() async {
        let (notifications, target, diagnostics) = makeAttachedLayer()
        let permission = await notifications.initializeNotifications(configuration: .init()).value
        #expect(permission?.status == .unavailable)
        let result = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: binobanUserInfo()).value
        guard case .notDisplayed = result.outcome else {
            Issue.record("expected notDisplayed, got \(result.outcome)")
            return
        }
        #expect(target.calls.isEmpty)
        #expect(diagnostics.codes.isEmpty)
    }

    @Test("initializeNotifications asks for permission only when configured to")
    func permissionOnStart() async {
        let presenter = ScriptedPresenter(permission: .denied)
        let (notifications, _, diagnostics) = makeAttachedLayer(presenter: presenter)
        let notAsked = await notifications.initializeNotifications(
            configuration: .init(askNotificationPermissionOnStart: false)
        ).value
        #expect(notAsked == nil)
        #expect(presenter.permissionRequestCount == 0)
        let asked = await notifications.initializeNotifications(configuration: .init()).value
        #expect(asked?.status == .denied)
        #expect(presenter.permissionRequestCount == 1)
        #expect(diagnostics.codes == [.permissionNotGranted])
        #expect(
            NotificationPlatformConfigurationIos()
                == .init(askNotificationPermissionOnStart: true, notificationSoundName: nil))
    }

    @Test("A push before initializeNotifications is not displayed but still tracked")
    func pushBeforeInitialize() async {
        let presenter = ScriptedPresenter()
        let (notifications, target, diagnostics) = makeAttachedLayer(presenter: presenter)
        let result = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: binobanUserInfo()).value
        #expect(result.outcome == .notDisplayed(reason: "notifications are not initialized"))
        #expect(presenter.displayRequests.isEmpty)
        #expect(diagnostics.codes == [.notInitialized])
        notifications.onWillPresentForwarded(userInfo: binobanUserInfo())
        notifications.onDidReceiveForwarded(userInfo: binobanUserInfo(), actionId: nil, dismissed: false)
        #expect(target.eventNames == ["bb_notification_delivered", "bb_notification_clicked"])
    }

    @Test("A body tap reports clicked with no actionId and the main uri")
    func bodyTap() {
        let (notifications, target, _) = makeAttachedLayer()
        let defaultAction = "com.apple.UNNotificationDefaultActionIdentifier"
        for actionId in [nil, "", defaultAction] {
            notifications.onDidReceiveForwarded(userInfo: binobanUserInfo(), actionId: actionId, dismissed: false)
        }
        #expect(target.eventNames == Array(repeating: "bb_notification_clicked", count: 3))
        #expect(target.events.allSatisfy { $0.properties == ["notificationUuid": "n-1", "uri": "app://main"] })
    }

    @Test("A button tap reports that button's own uri, or none, never the main uri")
    func buttonTap() {
        let (notifications, target, _) = makeAttachedLayer()
        let userInfo = binobanUserInfo(
            actions: [
                BinobanPushAction(id: "buy", title: "Buy", uri: "app://buy"),
                BinobanPushAction(id: "later", title: "Later"),
            ]
        )
        notifications.onDidReceiveForwarded(userInfo: userInfo, actionId: "buy", dismissed: false)
        notifications.onDidReceiveForwarded(userInfo: userInfo, actionId: "later", dismissed: false)
        notifications.onDidReceiveForwarded(userInfo: userInfo, actionId: "unknown", dismissed: false)
        #expect(
            target.events.map(\.properties) == [
                ["notificationUuid": "n-1", "actionId": "buy", "uri": "app://buy"],
                ["notificationUuid": "n-1", "actionId": "later"],
                ["notificationUuid": "n-1", "actionId": "unknown"],
            ]
        )
    }

    @Test("A dismissal reports closed, whatever the action id")
    func dismissal() {
        let (notifications, target, _) = makeAttachedLayer()
        notifications.onDidReceiveForwarded(
            userInfo: binobanUserInfo(customData: ["k": "v"]), actionId: "buy", dismissed: true)
        notifications.onDidReceiveForwarded(
            userInfo: binobanUserInfo(),
            actionId: "com.apple.UNNotificationDismissActionIdentifier",
            dismissed: false
        )
        #expect(target.eventNames == ["bb_notification_closed", "bb_notification_closed"])
        #expect(target.events.first?.properties == ["notificationUuid": "n-1", "customData": ["k": "v"]])
    }

    @Test("onNotificationOpened reports opened with the main uri")
    func opened() {
        let (notifications, target, _) = makeAttachedLayer()
        notifications.onNotificationOpened(userInfo: binobanUserInfo())
        #expect(target.eventNames == ["bb_notification_opened"])
        #expect(target.events.first?.properties == ["notificationUuid": "n-1", "uri": "app://main"])
    }

    @Test("Non-Binoban payloads yield no event, no dispatch, no display and no diagnostic")
    func nonBinobanIgnored() async {
        let presenter = ScriptedPresenter()
        let (notifications, target, diagnostics) = makeAttachedLayer(presenter: presenter)
        notifications.initializeNotifications(configuration: .init(askNotificationPermissionOnStart: false))
        let handler = RecordingInteractionHandler()
        let foreign: [AnyHashable: Any] = ["source": "other", "binoban_notification_uuid": "n-1", 7: Double.nan]
        _ = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: foreign).value
        notifications.onWillPresentForwarded(userInfo: foreign)
        notifications.onDidReceiveForwarded(userInfo: foreign, actionId: nil, dismissed: false)
        notifications.onNotificationOpened(userInfo: foreign)
        notifications.interactionManager.setHandler(handler: handler)
        notifications.onDidReceiveForwarded(userInfo: foreign, actionId: "a", dismissed: true)
        #expect(target.calls.isEmpty)
        #expect(handler.interactions.isEmpty)
        #expect(presenter.displayRequests.isEmpty)
        #expect(diagnostics.codes.isEmpty)
        #expect(notifications.interactionManager.drainPendingInteractions().isEmpty)
    }

    @Test("A Binoban payload without a uuid yields nothing but a diagnostic")
    func malformedBinoban() {
        let (notifications, target, diagnostics) = makeAttachedLayer()
        notifications.onWillPresentForwarded(userInfo: ["source": "binoban"])
        notifications.onDidReceiveForwarded(userInfo: ["source": "binoban"], actionId: nil, dismissed: false)
        #expect(target.calls.isEmpty)
        #expect(diagnostics.codes == [.missingNotificationUuid, .missingNotificationUuid])
    }

    @Test("userInfo is accepted as [AnyHashable: Any], [String: Any] and JSONValue alike")
    func userInfoShapes() {
        let (notifications, target, diagnostics) = makeAttachedLayer()
        let hashable: [AnyHashable: Any] = [
            "source": "binoban", "binoban_notification_uuid": "n-a", "binoban_uri": "app://a", "binoban_cd_n": 3,
            42: "non-string key", "aps": ["alert": ["title": "T"], "content-available": 1],
        ]
        let strings: [String: Any] = [
            "source": "binoban", "binoban_notification_uuid": "n-s", "binoban_uri": "app://s",
        ]
        let json: JSONValue = ["source": "binoban", "binoban_notification_uuid": "n-j", "binoban_uri": "app://j"]
        notifications.onWillPresentForwarded(userInfo: hashable)
        notifications.onWillPresentForwarded(userInfo: strings)
        notifications.onWillPresentForwarded(userInfo: json)
        notifications.onDidReceiveForwarded(userInfo: hashable, actionId: nil, dismissed: false)
        notifications.onDidReceiveForwarded(userInfo: strings, actionId: nil, dismissed: true)
        notifications.onNotificationOpened(userInfo: strings)
        #expect(
            target.events.map { "\($0.name) \($0.properties["uri"]?.stringValue ?? "-")" } == [
                "bb_notification_delivered app://a", "bb_notification_delivered app://s",
                "bb_notification_delivered app://j", "bb_notification_clicked app://a", "bb_notification_closed -",
                "bb_notification_opened app://s",
            ]
        )
        #expect(target.events.first?.properties["customData"] == ["n": "3"])
        // The non-string key and the numeric custom-data value are reported each time the payload is read.
        #expect(diagnostics.codes.filter { $0 == .userInfoEntryIgnored }.count == 2)
        #expect(diagnostics.codes.filter { $0 == .customDataValueConverted }.count == 2)
    }

    @Test("onApplicationDidReceiveRemoteNotification accepts loosely typed userInfo")
    func displayLooselyTypedUserInfo() async {
        let presenter = ScriptedPresenter()
        let (notifications, _, _) = makeAttachedLayer(presenter: presenter)
        notifications.initializeNotifications(configuration: .init(askNotificationPermissionOnStart: false))
        let hashable: [AnyHashable: Any] = [
            "source": "binoban", "binoban_notification_uuid": "n-h", "binoban_title": "H",
        ]
        let strings: [String: Any] = ["source": "binoban", "binoban_notification_uuid": "n-s", "binoban_body": "S"]
        let first = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: hashable).value
        let second = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: strings).value
        #expect(first.outcome == .displayed && second.outcome == .displayed)
        #expect(presenter.displayRequests.map(\.notificationUuid) == ["n-h", "n-s"])
        #expect(presenter.displayRequests.map(\.title) == ["H", nil])
        #expect(presenter.displayRequests.map(\.body) == [nil, "S"])
        // Other senders' keys survive into the shown notification's userInfo.
        let withFirebaseKeys: [AnyHashable: Any] = [
            "source": "binoban", "binoban_notification_uuid": "n-f", "gcm.message_id": "m-1",
            "aps": ["content-available": 1],
        ]
        _ = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: withFirebaseKeys).value
        #expect(presenter.displayRequests.last?.userInfo["gcm.message_id"] == "m-1")
        #expect(presenter.displayRequests.last?.userInfo["aps"] == ["content-available": 1])
    }

    @Test("The facade spellings exist on the shared instances")
    func sharedFacadeSpellings() {
        #expect(NotificationInteractionManager.shared === BinobanNotifications.shared.interactionManager)
        let notificationEntry: (String) -> Void = BinobanNotification.shared.refreshToken(token:)
        let newToken: (String) -> Void = BinobanNotifications.shared.onNewToken(token:)
        _ = (notificationEntry, newToken)
        #expect(
            NotificationInteractionType.allCases.map(\.name) == ["DELIVERED", "CLICKED", "CLOSED", "FAILED", "OPENED"])
    }
}
