import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

@Suite("Configuration validation")
struct ConfigurationTests {
    func validated(_ change: (inout Configuration) -> Void) -> ValidatedConfiguration {
        var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "SOURCE")
        configuration.apiHost = "api.binoban.io"
        change(&configuration)
        return ValidatedConfiguration(configuration)
    }

    @Test("Defaults are the Binoban SDK's")
    func defaults() {
        let configuration = Configuration(apiKey: "k", sourceIdentifier: "s")
        #expect(configuration.apiHost == "")
        #expect(configuration.uploadPath == "/b")
        #expect(configuration.flushAt == 20)
        #expect(configuration.flushInterval == 30)
        #expect(configuration.uploadMaxRetries == 3)
        #expect(configuration.backoffBase == .seconds(1))
        #expect(configuration.backoffFactor == 2.0)
        #expect(configuration.backoffMax == .seconds(60))
        #expect(configuration.maxFilesPerFlush == 20)
        #expect(configuration.collectDeviceId)
        #expect(configuration.trackApplicationLifecycleEvents)
        #expect(configuration.backpressure == .dropOldest)
        #expect(configuration.retryAfterLimit == .seconds(600))
        #if os(iOS) || os(tvOS) || os(watchOS) || os(visionOS)
        #expect(configuration.writeStageCapacity == 1000)
        #expect(configuration.storageLimits == BinobanStorageLimits())
        #expect(configuration.maxConcurrentUploads == 1)
        #else
        // Server platforms: a burst waits on disk, not in memory or evicted (Docs/Decisions/0207).
        #expect(configuration.writeStageCapacity == 100_000)
        #expect(configuration.storageLimits == .server)
        #expect(configuration.storageLimits.maxTotalBytes == 512 * 1_048_576)
        #expect(configuration.storageLimits.maxFinishedBatches == 10_000)
        #expect(configuration.maxConcurrentUploads == 4)
        #endif
        #expect(BinobanStorageLimits.mobile == BinobanStorageLimits())
        #expect(BinobanStorageLimits.mobile.maxTotalBytes == 5_000_000)
        #expect(configuration.startsAutomatically)
    }

    @Test("The endpoint is https://{apiHost}{uploadPath}")
    func endpoint() {
        #expect(validated { _ in }.endpoint?.absoluteString == "https://api.binoban.io/b")
        #expect(
            validated { $0.apiHost = "api.binoban.io/v1" }.endpoint?.absoluteString == "https://api.binoban.io/v1/b")
        #expect(
            validated { $0.apiHost = "ingest.example:8443" }.endpoint?.absoluteString == "https://ingest.example:8443/b"
        )
        #expect(validated { $0.uploadPath = "batch" }.endpoint?.absoluteString == "https://api.binoban.io/batch")
    }

    @Test("A scheme or a trailing slash is removed and reported")
    func normalisation() {
        let https = validated { $0.apiHost = "https://api.binoban.io/" }
        #expect(https.isValid)
        #expect(https.endpoint?.absoluteString == "https://api.binoban.io/b")
        #expect(https.adjustments.count == 2)
        let plain = validated { $0.apiHost = "http://api.binoban.io" }
        #expect(plain.endpoint?.absoluteString == "https://api.binoban.io/b")
        #expect(!plain.adjustments.isEmpty)
        let loopback = validated { $0.apiHost = "http://127.0.0.1:8080" }
        #expect(loopback.endpoint?.absoluteString == "http://127.0.0.1:8080/b")
    }

    @Test("allowsCleartextHost keeps an explicit http:// on any host (reported); it never downgrades another host")
    func cleartextHostOptIn() {
        #expect(Configuration(apiKey: "k", sourceIdentifier: "s").allowsCleartextHost == false)
        let allowed = validated {
            $0.apiHost = "http://ingest.internal:8080/prefix"
            $0.allowsCleartextHost = true
        }
        #expect(allowed.isValid)
        #expect(allowed.endpoint?.absoluteString == "http://ingest.internal:8080/prefix/b")
        #expect(allowed.adjustments.contains { $0.contains("plain HTTP") && $0.contains("allowsCleartextHost") })
        let notAllowed = validated { $0.apiHost = "http://ingest.internal:8080" }
        #expect(notAllowed.endpoint?.absoluteString == "https://ingest.internal:8080/b")
        // Without an explicit http:// the opt-in changes nothing.
        for host in ["ingest.internal", "https://ingest.internal"] {
            let secure = validated {
                $0.apiHost = host
                $0.allowsCleartextHost = true
            }
            #expect(secure.endpoint?.absoluteString == "https://ingest.internal/b")
            #expect(!secure.adjustments.contains { $0.contains("plain HTTP") })
        }
        // Loopback stays plain HTTP either way, and says why.
        let loopback = validated {
            $0.apiHost = "http://127.0.0.1:8080"
            $0.allowsCleartextHost = true
        }
        #expect(loopback.endpoint?.absoluteString == "http://127.0.0.1:8080/b")
        #expect(loopback.adjustments.contains { $0.contains("loopback") })
    }

    @Test(
        "Blank credentials or a host that is not a host make the configuration invalid",
        arguments: ["", "   ", "not a host", "api..", "ftp://x.io", "host:99999", "-bad.io", "a.io/pa th", "[zz]"]
    )
    func invalidHosts(host: String) {
        #expect(!validated { $0.apiHost = host }.isValid)
    }

    @Test("Blank apiKey or sourceIdentifier is invalid")
    func blankCredentials() {
        #expect(!validated { $0.apiKey = " " }.isValid)
        #expect(!validated { $0.sourceIdentifier = "" }.isValid)
    }

    @Test("flushAt below 1 and flushInterval of 0 or less are clamped and reported")
    func clamps() {
        let result = validated {
            $0.flushAt = 0
            $0.flushInterval = -1
        }
        #expect(result.isValid)
        #expect(result.flushAt == 20)
        #expect(result.flushInterval == .seconds(30))
        #expect(result.adjustments.count == 2)
        #expect(validated { $0.flushInterval = .nan }.flushInterval == .seconds(30))
        #expect(validated { $0.flushInterval = 0.5 }.flushInterval == .milliseconds(500))
    }

    @Test("Backoff durations reach the schedule in milliseconds; negative ones become zero, huge ones are capped")
    func backoffDurations() {
        let custom = validated {
            $0.backoffBase = .milliseconds(250)
            $0.backoffMax = .seconds(2) + .microseconds(1500)
        }
        #expect(custom.backoffBaseMillis == 250)
        #expect(custom.backoffMaxMillis == 2001)
        #expect(custom.adjustments.isEmpty)

        let negative = validated { $0.backoffBase = .milliseconds(-5) }
        #expect(negative.backoffBaseMillis == 0)
        #expect(negative.adjustments == ["retry, backoff or capacity options out of range were clamped"])

        // A duration of about 292 billion years must not overflow the millisecond count.
        let huge = validated { $0.backoffMax = .seconds(Int64.max) }
        #expect(huge.backoffMaxMillis > 0)
        #expect(huge.backoffMaxMillis <= Int.max)
    }
}

@Suite("Construction never throws")
struct ConstructionTests {
    @Test("An invalid configuration yields a disabled instance: no request, no file, a report")
    func disabledInstance() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("binoban-disabled-\(UUID())")
        let reports = ReportRecorder()
        let transport = ScriptedTransport()
        let binoban = BinobanFactory.shared.create(apiKey: "KEY", sourceIdentifier: "SOURCE") { config in
            config.apiHost = "  "
            config.storageDirectory = directory
            config.transport = transport
            config.errorHandler = reports.handler
        }
        #expect(!binoban.isOperational)
        #expect(reports.kinds() == [.invalidConfiguration])
        #expect(!reports.all[0].message.contains("KEY"))
        binoban.track(name: "a")
        binoban.identify(userId: "u", traits: ["x": 1])
        binoban.setDeviceToken(token: "t")
        binoban.reset()
        binoban.flush()
        binoban.flushAt = 1
        binoban.enabled = true
        let result = await binoban.flushAndWait()
        #expect(result.outcome == .paused)
        // "Always present": a stable random id, never persisted.
        let anonymousId = binoban.anonymousId()
        #expect(anonymousId.utf8.count == 36)
        #expect(binoban.anonymousId() == anonymousId)
        #expect(binoban.userId() == nil)
        #expect(!binoban.enabled)
        _ = await binoban.shutdown(gracePeriod: .seconds(1))
        #expect(transport.requests.isEmpty)
        #expect(!FileManager.default.fileExists(atPath: directory.path))
    }

    @Test("Clamped values are reported and the instance works")
    func clampedIsReported() async {
        let harness = PipelineHarness { config in
            config.flushAt = -5
            config.flushInterval = 0
        }
        #expect(harness.binoban.isOperational)
        #expect(harness.binoban.flushAt == 20)
        #expect(harness.binoban.flushInterval == 30)
        #expect(harness.reports.kinds().filter { $0 == .configurationAdjusted }.count == 1)  // rate-limited per kind
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("Two instances on the same directory and source both work; the second is reported and stays in memory")
    func sameDirectoryTwice() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("binoban-twice-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let firstReports = ReportRecorder()
        let secondReports = ReportRecorder()
        func make(_ reports: ReportRecorder, _ transport: ScriptedTransport) -> Binoban {
            BinobanFactory.shared.create(apiKey: "KEY", sourceIdentifier: "SAME") { config in
                config.apiHost = "api.binoban.io"
                config.storageDirectory = directory
                config.transport = transport
                config.errorHandler = reports.handler
            }
        }
        let firstTransport = ScriptedTransport()
        let secondTransport = ScriptedTransport()
        let first = make(firstReports, firstTransport)
        let second = make(secondReports, secondTransport)
        first.track(name: "one")
        second.track(name: "two")
        #expect(await first.flushAndWait().outcome == .completed)
        #expect(await second.flushAndWait().outcome == .completed)
        #expect(try firstTransport.uploadedEvents().map(\.event) == ["one"])
        #expect(try secondTransport.uploadedEvents().map(\.event) == ["two"])
        #expect(
            secondReports.all.contains {
                $0.kind == .storage && $0.message.contains("another instance") && $0.message.contains(directory.path)
            })
        #expect(!firstReports.all.contains { $0.message.contains("another instance") })
        #expect(first.statistics.storageFallbacks == 0)
        #expect(second.statistics.storageFallbacks == 1)
        _ = await first.shutdown(gracePeriod: .seconds(5))
        _ = await second.shutdown(gracePeriod: .seconds(5))
    }
}

@Suite("Static controls", .serialized)
struct StaticControlsTests {
    @Test("debugLogsEnabled defaults to false and is shared with the companion spelling")
    func debugLogs() {
        #expect(!Binoban.debugLogsEnabled)
        Binoban.companion.debugLogsEnabled = true
        #expect(Binoban.debugLogsEnabled)
        Binoban.debugLogsEnabled = false
        #expect(!Binoban.companion.debugLogsEnabled)
        #expect(Binoban.version == SDKCoreVersion.current)
    }
}
