import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// Binoban's reports and the push layer's diagnostics reach the package's one log hook, with no secret or user
/// value in any line.
@Suite("Binoban log hook")
struct LogHookTests {
    @Test("every report the error handler receives reaches the log handler, with its kind and counts as metadata")
    func reportsBecomeRecords() async throws {
        let logs = InMemoryLogHandler()
        let harness = PipelineHarness(script: [400]) { $0.logHandler = logs }
        await harness.settle()
        harness.binoban.track(name: "a", properties: ["bad": Double.nan] as [String: Any])
        harness.binoban.enabled = false
        harness.binoban.track(name: "paused 1")
        harness.binoban.track(name: "paused 2")
        harness.binoban.enabled = true
        await harness.binoban.flushAndWait()
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))

        let reports = harness.reports.all
        // Debug lines (written while another test has `debugLogsEnabled` on) are not reports.
        let records = logs.records.filter { $0.level != .debug }
        #expect(records.count == reports.count)
        #expect(records.map { $0.metadata["kind"] } == reports.map(\.kind.name))
        #expect(records.map(\.message) == reports.map(\.message))
        #expect(records.allSatisfy { $0.source == "BinobanCore" })
        #expect(records.map(\.level) == reports.map { $0.severity == .warning ? .warning : .error })
        #expect(
            records.map { Int($0.metadata["eventCount"] ?? "0") } == reports.map(\.eventCount))
        #expect(Set(reports.map(\.kind)).isSuperset(of: [.propertyConversion, .pausedDrop, .batchRejected]))
        #expect(reports.first { $0.kind == .pausedDrop }?.logRecord.metadata["eventCount"] == "2")
    }

    @Test("no API key, user id, trait, property value or push token appears in a log line or a report")
    func noSecrets() async throws {
        let secrets = [
            "SECRET-API-KEY-7731", "user-secret-4242", "trait-secret@example.com", "prop-secret-9911",
            "token-secret-5150", "title-secret", "body-secret", "custom-secret",
        ]
        let logs = InMemoryLogHandler()
        let harness = PipelineHarness(script: [400, 413, 400]) { config in
            config.apiKey = secrets[0]
            config.logHandler = logs
        }
        await harness.settle()
        let binoban = harness.binoban
        binoban.identify(userId: secrets[1], traits: ["email": secrets[2], "odd": Double.infinity] as [String: Any])
        binoban.setDeviceToken(token: secrets[4])
        binoban.track(name: "t", properties: ["card": secrets[3], "bad": Double.nan] as [String: Any])
        binoban.track(name: "big", properties: ["blob": .string(String(repeating: secrets[3], count: 4_000))])
        binoban.enabled = false
        binoban.track(name: "paused", properties: ["card": .string(secrets[3])])
        binoban.enabled = true
        await binoban.flushAndWait()
        await binoban.flushAndWait()
        await binoban.flushAndWait()

        var keys = BinobanPushPayloadKeys.standard
        keys.notificationUuid = keys.source
        let notifications = BinobanNotifications(options: .init(keys: keys), logHandler: logs)
        notifications.attach(binoban)
        notifications.onNewToken(token: "   ")
        notifications.onNewToken(token: secrets[4])
        let userInfo: [String: Any] = [
            "source": "binoban", "binoban_notification_uuid": "n-1", "binoban_title": secrets[5],
            "binoban_body": secrets[6], "binoban_cd_x": ["nested": secrets[7]], "binoban_uri": 42,
            "binoban_actions": "[{\"id\": \"\(secrets[7])\"", "binoban_cd_y": Date.distantFuture,
        ]
        _ = await notifications.onApplicationDidReceiveRemoteNotification(userInfo: userInfo).value
        _ = await BinobanNotifications(logHandler: logs).onApplicationDidReceiveRemoteNotification(userInfo: userInfo)
            .value
        _ = await binoban.shutdown(gracePeriod: .seconds(1))

        let lines =
            logs.records.flatMap { [$0.message] + $0.metadata.keys + $0.metadata.values }
            + harness.reports.all.map(\.description)
        #expect(logs.records.count >= 5)
        #expect(logs.records.contains { $0.metadata["code"] == "invalidPayloadKeys" })
        for secret in secrets {
            #expect(!lines.contains { $0.contains(secret) }, "\(secret) appeared in a log line")
        }
    }
}
