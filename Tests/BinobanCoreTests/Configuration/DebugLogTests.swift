import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// `Binoban.companion.debugLogsEnabled` is one process-wide switch, so these tests belong to the serialized
/// "Static controls" suite: no other test of this process turns it on or off meanwhile. The traces are read
/// from instances that write their lines without the switch (`debugLogsForThisInstance`); the switch itself is
/// on only around two synchronous calls, because while it is on every instance of the process is traced: left
/// on for a whole flush, it made a concurrent suite's 160 000 tracked events format their debug lines, which
/// held the cooperative threads for minutes under the thread sanitizer and stalled every other test.
extension StaticControlsTests {
    @Test("debug logs trace each accepted call, flush, upload and answer to the log hook, without user data")
    func debugLogsTraceTheIntegration() async throws {
        let secrets = ["SECRET-KEY-3141", "user-secret-2718", "trait-secret@example.com", "prop-secret-1618"]
        let logs = InMemoryLogHandler()
        // This instance's lines only: the process-wide switch would trace every other suite's instances too.
        let harness = PipelineHarness(script: [200, 400]) { config in
            config.apiKey = secrets[0]
            config.logHandler = logs
            config.debugLogsForThisInstance = true
        }
        await harness.settle()
        let binoban = harness.binoban
        binoban.identify(userId: secrets[1], traits: ["email": .string(secrets[2])])
        binoban.track(name: "purchase", properties: ["item": .string(secrets[3]), "price": "49.99"])
        binoban.track(name: "viewed")
        let first = await binoban.flushAndWait()
        binoban.enabled = false
        binoban.track(name: "while paused", properties: ["item": .string(secrets[3])])
        binoban.enabled = true
        binoban.track(name: "refused\u{1}by the server")
        let second = await binoban.flushAndWait()
        _ = await binoban.shutdown(gracePeriod: .seconds(1))
        #expect(first.uploadedEvents == 3)
        #expect(second.rejectedEvents == 1)

        let debug = logs.records.filter { $0.level == .debug }
        let lines = debug.map(\.message)
        let expected = [
            "flush requested (awaited)",
            "identify accepted (1 trait)",
            "track \"purchase\" accepted (2 properties)",
            "track \"viewed\" accepted (0 properties)",
            "flush: 1 stored batch to upload",
            "upload of batch 1 answered HTTP 200: accepted; the batch is deleted",
            "flush finished: completed; 3 events uploaded, 0 rejected, 0 dropped",
            "track \"while paused\" dropped: the instance is paused (enabled is false)",
            "track \"refused?by the server\" accepted (0 properties)",
            "upload of batch 2 answered HTTP 400: rejected; the batch is deleted and its events are dropped (reported)",
            // The paused event and the rejected one.
            "flush finished: completed; 0 events uploaded, 1 rejected, 2 dropped",
            "flush: nothing stored to upload",
        ]
        for line in expected {
            #expect(lines.contains(line), "missing debug line: \(line)")
        }
        #expect(lines.contains { $0.hasPrefix("upload of batch 1: 3 events, ") && $0.hasSuffix(" bytes") })
        // In the order a developer follows: accepted, flushed, sent, answered.
        let order = ["track \"viewed\"", "flush: 1 stored", "upload of batch 1: ", "upload of batch 1 answered"]
        let positions = order.map { prefix in lines.firstIndex { $0.hasPrefix(prefix) } ?? -1 }
        #expect(positions == positions.sorted() && !positions.contains(-1), "\(lines)")

        // The writer's file, not an adapter's; the module as the source; the kind of line as metadata.
        #expect(debug.allSatisfy { $0.source == "BinobanCore" })
        let track = try #require(debug.first { $0.message.hasPrefix("track \"purchase\"") })
        #expect(track.file.hasSuffix("Binoban.swift") && track.metadata["outcome"] == "accepted")
        let upload = try #require(debug.first { $0.message.hasPrefix("upload of batch 1 answered") })
        #expect(upload.file.hasSuffix("PipelineLoop.swift") && upload.metadata["status"] == "200")

        // No user data: no API key, user id, anonymous id, trait or property value in any line or metadata.
        let texts = logs.records.flatMap { [$0.message] + Array($0.metadata.values) }
        for secret in secrets + [binoban.anonymousId()] {
            #expect(!texts.contains { $0.contains(secret) }, "\(secret) leaked into a log line")
        }
    }

    @Test("a transport failure is traced as an upload without an answer, kept for a retry")
    func debugLogsTraceAFailedUpload() async throws {
        let logs = InMemoryLogHandler()
        let harness = PipelineHarness(script: [.networkError]) { config in
            config.logHandler = logs
            config.uploadMaxRetries = 0
            config.debugLogsForThisInstance = true
        }
        await harness.settle()
        harness.binoban.track(name: "a")
        _ = await harness.binoban.flushAndWait()
        _ = await harness.binoban.shutdown(gracePeriod: .zero)
        let lines = logs.records.filter { $0.level == .debug }.map(\.message)
        #expect(
            lines.contains(
                "upload of batch 1 got no answer (other (the request failed; ScriptedNetworkError)); the batch is kept for a retry"
            ), "\(lines)")
    }

    @Test("The process-wide switch traces every instance while it is on, and none once it is off again")
    func processWideSwitch() async throws {
        let logs = InMemoryLogHandler()
        let harness = PipelineHarness(script: []) { $0.logHandler = logs }
        await harness.settle()
        // On for two synchronous calls only: every instance of the test process is traced while it is on.
        Binoban.companion.debugLogsEnabled = true
        harness.binoban.track(name: "while on")
        harness.binoban.flush()
        Binoban.companion.debugLogsEnabled = false
        harness.binoban.track(name: "after")
        let lines = logs.records.filter { $0.level == .debug }.map(\.message)
        // The driver may trace the flush it took before the switch went off; nothing after it is traced.
        #expect(Array(lines.prefix(2)) == ["track \"while on\" accepted (0 properties)", "flush requested"])
        #expect(!lines.contains { $0.contains("\"after\"") })
        _ = await harness.binoban.shutdown(gracePeriod: .zero)
    }

    @Test("with debug logs off nothing is traced, and the log hook gets reports only")
    func noDebugLinesWhenOff() async {
        let logs = InMemoryLogHandler()
        #expect(!Binoban.debugLogsEnabled)
        let harness = PipelineHarness(script: [200]) { $0.logHandler = logs }
        await harness.settle()
        harness.binoban.identify(userId: "u", traits: ["a": "b"])
        harness.binoban.track(name: "a")
        _ = await harness.binoban.flushAndWait()
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
        #expect(harness.transport.requests.count == 1)
        #expect(!logs.records.contains { $0.level == .debug })
    }
}
