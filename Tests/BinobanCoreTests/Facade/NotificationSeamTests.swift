import BinobanCoreTesting
import Testing

/// The shape the push layer's `BinobanNotificationTarget` requires; `Binoban` must satisfy it as is.
private protocol NotificationTargetShape: Sendable {
    func track(name: String, properties: JSONValue)
    func setDeviceToken(token: String)
}

extension Binoban: NotificationTargetShape {}

@Suite("Push seam")
struct NotificationSeamTests {
    @Test("Binoban works through the notification-target shape (non-async, non-throwing)")
    func throughTheSeam() async throws {
        let harness = PipelineHarness()
        await harness.settle()
        let target: any NotificationTargetShape = harness.binoban
        target.setDeviceToken(token: "fcm:1")
        target.track(name: "bb_notification_clicked", properties: ["notificationUuid": "n-1"])
        await harness.binoban.flushAndWait()
        let events = try harness.uploadedEvents()
        #expect(events.map(\.event) == ["bb_notification_registered", "bb_notification_clicked"])
        #expect(events[1].context["device"]?["token"] == "fcm:1")
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }
}
