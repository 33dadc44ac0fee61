import BinobanCore
import Testing

@Suite("Push interaction dispatch, handlers and replay")
struct PushInteractionManagerTests {
    @Test("Cold start: a tap dispatched before setHandler is tracked once, then drained once and not re-tracked")
    func coldStartDrain() {
        let (notifications, target, _) = makeAttachedLayer()
        let manager = notifications.interactionManager
        notifications.onDidReceiveForwarded(
            userInfo: binobanUserInfo(customData: ["k": "v"]), actionId: nil, dismissed: false)
        #expect(target.eventNames == ["bb_notification_clicked"])

        let handler = ReceivedInteractions()
        manager.setHandler(
            handler: SubclassedInteractionHandler(notifications: notifications, callsSuper: true, received: handler))
        let drained = manager.drainPendingInteractions()
        #expect(
            drained == [
                NotificationInteraction(
                    notificationUuid: "n-1", type: .clicked, uri: "app://main", customData: ["k": "v"])
            ]
        )
        #expect(manager.drainPendingInteractions().isEmpty)
        #expect(handler.interactions.isEmpty)
        #expect(target.eventNames == ["bb_notification_clicked"])

        // Later interactions reach the app handler, are tracked through super, and are not buffered.
        notifications.onWillPresentForwarded(userInfo: binobanUserInfo(uuid: "n-2"))
        #expect(handler.interactions.map(\.type) == [.delivered])
        #expect(target.eventNames == ["bb_notification_clicked", "bb_notification_delivered"])
        #expect(manager.drainPendingInteractions().isEmpty)
    }

    @Test("The replay buffer keeps the newest 16 by default, oldest dropped")
    func replayBound() {
        let (notifications, target, _) = makeAttachedLayer()
        for index in 0..<20 { notifications.onNotificationOpened(userInfo: binobanUserInfo(uuid: "n-\(index)")) }
        let drained = notifications.interactionManager.drainPendingInteractions()
        #expect(drained.map(\.notificationUuid) == (4..<20).map { "n-\($0)" })
        #expect(target.eventNames.count == 20)
    }

    @Test("A subclass that skips super stops tracking; resetToDefault restores it")
    func subclassWithoutSuper() {
        let (notifications, target, _) = makeAttachedLayer()
        let handler = ReceivedInteractions()
        notifications.interactionManager.setHandler(
            handler: SubclassedInteractionHandler(notifications: notifications, callsSuper: false, received: handler))
        notifications.onNotificationOpened(userInfo: binobanUserInfo())
        #expect(handler.interactions.count == 1)
        #expect(target.calls.isEmpty)
        notifications.interactionManager.resetToDefault()
        notifications.onNotificationOpened(userInfo: binobanUserInfo())
        #expect(handler.interactions.count == 1)
        #expect(target.eventNames == ["bb_notification_opened"])
    }

    @Test("A handler may call back into the layer without deadlocking")
    func reentrantHandler() {
        let (notifications, target, _) = makeAttachedLayer()
        final class Reentrant: NotificationInteractionHandler {
            let notifications: BinobanNotifications
            init(notifications: BinobanNotifications) { self.notifications = notifications }
            func onNotificationInteraction(interaction: NotificationInteraction) {
                notifications.interactionManager.resetToDefault()
                _ = notifications.interactionManager.drainPendingInteractions()
                notifications.onNotificationOpened(userInfo: binobanUserInfo(uuid: "from-handler"))
            }
        }
        notifications.interactionManager.setHandler(handler: Reentrant(notifications: notifications))
        notifications.onNotificationOpened(userInfo: binobanUserInfo())
        #expect(target.events.map { $0.properties["notificationUuid"] } == ["from-handler"])
    }

    @Test("Handler swaps while interactions arrive from several tasks: each reaches exactly one handler")
    func swapsUnderConcurrency() async {
        let (notifications, target, _) = makeAttachedLayer()
        let manager = notifications.interactionManager
        let first = RecordingInteractionHandler()
        let second = RecordingInteractionHandler()
        let producers = 6
        let perProducer = 300
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<producers {
                group.addTask {
                    for index in 0..<perProducer {
                        notifications.onDidReceiveForwarded(
                            userInfo: binobanUserInfo(uuid: "p\(producer)-\(index)"),
                            actionId: nil,
                            dismissed: false
                        )
                    }
                }
            }
            group.addTask {
                for round in 0..<600 {
                    switch round % 3 {
                    case 0: manager.setHandler(handler: first)
                    case 1: manager.setHandler(handler: second)
                    default: manager.resetToDefault()
                    }
                }
            }
        }
        let tracked = target.events.compactMap { $0.properties["notificationUuid"]?.stringValue }
        let viaFirst = first.interactions.map(\.notificationUuid)
        let viaSecond = second.interactions.map(\.notificationUuid)
        let all = tracked + viaFirst + viaSecond
        #expect(all.count == producers * perProducer)
        #expect(Set(all).count == producers * perProducer)

        // Only interactions the default handler took are buffered: the newest of them, up to the bound.
        let drained = manager.drainPendingInteractions().map(\.notificationUuid)
        #expect(drained.count == min(16, tracked.count))
        #expect(Set(drained).isSubset(of: Set(tracked)))
        #expect(Set(drained).count == drained.count)
    }

    @Test("Dispatches racing a drain are either drained or still buffered, never lost or duplicated")
    func drainRacingDispatch() async {
        let (notifications, _, _) = makeAttachedLayer(options: .init(replayCapacity: 10_000))
        let manager = notifications.interactionManager
        let drainedBatches = LockedValue<[String]>([])
        await withTaskGroup(of: Void.self) { group in
            for producer in 0..<4 {
                group.addTask {
                    for index in 0..<250 {
                        notifications.onNotificationOpened(userInfo: binobanUserInfo(uuid: "p\(producer)-\(index)"))
                    }
                }
            }
            group.addTask {
                for _ in 0..<200 {
                    let batch = manager.drainPendingInteractions().map(\.notificationUuid)
                    drainedBatches.withLock { $0.append(contentsOf: batch) }
                }
            }
        }
        let all = drainedBatches.withLock { $0 } + manager.drainPendingInteractions().map(\.notificationUuid)
        #expect(all.count == 1_000)
        #expect(Set(all).count == 1_000)
    }
}
