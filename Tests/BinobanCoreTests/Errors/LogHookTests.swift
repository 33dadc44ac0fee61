import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// Binoban's reports and the push layer's diagnostics reach the package's one log hook, with no secret or user
/// value in any line.
@Suite("Binoban log hook")
struct LogHookTests {
    /// An instance that meets three kinds of report: a property it cannot convert, `pausedTracks` events tracked
    /// while paused, and a batch the ingest rejects (400); it is shut down before the records are read.
    private func runReportingScenario(pausedTracks: Int) async -> (PipelineHarness, InMemoryLogHandler) {
        let logs = InMemoryLogHandler()
        let harness = PipelineHarness(script: [400]) { $0.logHandler = logs }
        await harness.settle()
        harness.binoban.track(name: "a", properties: ["bad": Double.nan] as [String: Any])
        harness.binoban.enabled = false
        for index in 1...pausedTracks { harness.binoban.track(name: "paused \(index)") }
        harness.binoban.enabled = true
        await harness.binoban.flushAndWait()
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
        return (harness, logs)
    }

    @Test("every report the error handler receives reaches the log handler, with its kind and counts as metadata")
    func reportsBecomeRecords() async throws {
        let (harness, logs) = await runReportingScenario(pausedTracks: 2)

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

    /// Every record once named `BinobanError+LogRecord.swift`, the line that turned a report into a record.
    /// Each must name the place in BinobanCore that reported: the source line there starts the report.
    @Test("a record's file and line are where BinobanCore reported the problem, not the logging adapter")
    func recordsNameTheReportingLine() async throws {
        let (_, logs) = await runReportingScenario(pausedTracks: 1)

        // Debug lines (written while another test has `debugLogsEnabled` on) are not reports.
        let records = logs.records.filter { $0.level != .debug }
        let files = Dictionary(records.map { ($0.metadata["kind"] ?? "", $0.file) }, uniquingKeysWith: { a, _ in a })
        #expect(files["propertyConversion"] == "BinobanCore/Binoban.swift")
        #expect(files["pausedDrop"] == "BinobanCore/PipelineMachine+WriteStage.swift")
        #expect(files["batchRejected"] == "BinobanCore/PipelineMachine+Uploads.swift")
        let sources = URL(fileURLWithPath: #filePath)
            .deletingLastPathComponent().deletingLastPathComponent().deletingLastPathComponent()
            .deletingLastPathComponent().appendingPathComponent("Sources/BinobanCore")
        for record in records {
            #expect(
                ![
                    "BinobanCore/BinobanError+LogRecord.swift", "BinobanCore/ErrorReporter.swift",
                    "BinobanCore/PipelineLoop.swift",
                ].contains(record.file), "\(record.file):\(record.line)")
            let name = String(record.file.dropFirst("BinobanCore/".count))
            let path = try #require(
                FileManager.default.enumerator(atPath: sources.path)?.compactMap { $0 as? String }
                    .first { $0.hasSuffix("/" + name) })
            let lines = try String(contentsOf: sources.appendingPathComponent(path), encoding: .utf8)
                .components(separatedBy: "\n")
            let line = Int(record.line)
            #expect(line >= 1 && line <= lines.count)
            #expect(lines[line - 1].contains("report("), "\(record.file):\(record.line): \(lines[line - 1])")
            #expect(record.function != "logRecord(file:function:line:)" && record.function != "deliver(_:from:)")
        }
    }

    @Test("a push diagnostic's record names the code that met it, not the logging adapter")
    func pushRecordsNameTheReportingLine() {
        let logs = InMemoryLogHandler()
        let notifications = BinobanNotifications(logHandler: logs)
        notifications.onNewToken(token: "  ")
        let record = logs.records.first { $0.metadata["code"] == "blankTokenIgnored" }
        #expect(record?.file == "BinobanCore/NotificationEventSink.swift")
        #expect(record?.function == "setDeviceToken(_:)")
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
