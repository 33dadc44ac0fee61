import BinobanCore
import Testing

@Suite("Push tokens")
struct PushTokenTests {
    @Test("Every token entry point registers through setDeviceToken, which emits bb_notification_registered")
    func everyEntryPointRegisters() {
        let (notifications, target, _) = makeAttachedLayer()
        notifications.onNewToken(token: "fcm-1")
        notifications.refreshToken(token: "fcm-2")
        notifications.setDeviceToken(token: "fcm-3")
        BinobanNotification(notifications: notifications).refreshToken(token: "fcm-4")
        #expect(
            target.calls == [
                .setDeviceToken("fcm-1"), .setDeviceToken("fcm-2"), .setDeviceToken("fcm-3"), .setDeviceToken("fcm-4"),
            ])
    }

    @Test("The same token twice registers twice")
    func sameTokenTwice() {
        let (notifications, target, _) = makeAttachedLayer()
        notifications.onNewToken(token: "fcm-1")
        notifications.onNewToken(token: "fcm-1")
        #expect(target.tokens == ["fcm-1", "fcm-1"])
    }

    @Test("Blank tokens are ignored and reported", arguments: ["", " ", "\n\t", "\u{3000}"])
    func blankTokens(token: String) {
        let (notifications, target, diagnostics) = makeAttachedLayer()
        notifications.onNewToken(token: token)
        #expect(target.calls.isEmpty)
        #expect(diagnostics.codes == [.blankTokenIgnored])
    }

    @Test("A token before any instance is kept (the latest) and emitted on attach, before waiting events")
    func tokenBeforeAttach() {
        let diagnostics = DiagnosticsRecorder()
        let notifications = BinobanNotifications(diagnostics: diagnostics.handler)
        notifications.onNewToken(token: "old")
        notifications.onDidReceiveForwarded(userInfo: binobanUserInfo(), actionId: nil, dismissed: false)
        notifications.refreshToken(token: "latest")
        notifications.onNewToken(token: " ")
        let target = RecordingNotificationTarget()
        notifications.attach(target)
        #expect(target.tokens == ["latest"])
        #expect(target.calls.first == .setDeviceToken("latest"))
        #expect(target.eventNames == ["bb_notification_clicked"])
        // Emitted once: a second instance bound later does not get it again.
        let second = RecordingNotificationTarget()
        notifications.attach(second)
        #expect(second.calls.isEmpty)
        notifications.onNewToken(token: "next")
        #expect(second.tokens == ["next"])
        #expect(target.tokens == ["latest"])
    }

    @Test("After detach, tokens and events wait for the next attach")
    func detachThenAttach() {
        let (notifications, first, _) = makeAttachedLayer()
        notifications.detach()
        notifications.onNewToken(token: "t")
        notifications.onWillPresentForwarded(userInfo: binobanUserInfo())
        #expect(first.calls.isEmpty)
        let second = RecordingNotificationTarget()
        notifications.attach(second)
        #expect(second.tokens == ["t"])
        #expect(second.eventNames == ["bb_notification_delivered"])
    }

    @Test("Events waiting for an instance are bounded: oldest dropped and reported")
    func pendingEventsBounded() {
        let diagnostics = DiagnosticsRecorder()
        let notifications = BinobanNotifications(
            options: .init(pendingEventCapacity: 2), diagnostics: diagnostics.handler)
        for index in 0..<5 { notifications.onWillPresentForwarded(userInfo: binobanUserInfo(uuid: "n-\(index)")) }
        let target = RecordingNotificationTarget()
        notifications.attach(target)
        #expect(target.events.map { $0.properties["notificationUuid"] } == ["n-3", "n-4"])
        #expect(diagnostics.codes == Array(repeating: .pendingEventsDropped, count: 3))
    }

    @Test("A token racing the first attach is emitted exactly once")
    func tokenRacingAttach() async {
        for round in 0..<50 {
            let notifications = BinobanNotifications()
            let target = RecordingNotificationTarget()
            await withTaskGroup(of: Void.self) { group in
                group.addTask { notifications.onNewToken(token: "t-\(round)") }
                group.addTask { notifications.attach(target) }
            }
            #expect(target.tokens == ["t-\(round)"])
        }
    }
}
