import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

/// A key-value store in a real file in a fresh temporary directory, removed by `remove()`.
private struct TemporaryIdentityFile {
    let directory = FileManager.default.temporaryDirectory
        .appendingPathComponent("binoban-lifecycle-\(UUID().uuidString)", isDirectory: true)

    var store: FileKeyValueStore { FileKeyValueStore(fileURL: directory.appendingPathComponent("identity.json")) }

    func remove() { try? FileManager.default.removeItem(at: directory) }
}

@Suite("Lifecycle: events reported by the host")
struct ApplicationLifecycleEventsTests {
    /// The events of request `index` (0-based), decoded.
    private static func events(ofRequest index: Int, in transport: ScriptedTransport) throws -> [UploadedEvent] {
        let requests = transport.requests
        try #require(requests.count > index, "only \(requests.count) requests")
        return try UploadedBatch.decode(requests[index].body).batch
    }

    /// Launches an instance on `store`, uploads what the launch tracked and shuts it down (persisting).
    private static func launch(
        on store: any BinobanKeyValueStore, version: String, build: String, seed: UInt64
    ) async throws -> [UploadedEvent] {
        let harness = PipelineHarness(keyValueStore: store, random: SeededRandomSource(seed: seed))
        await harness.settle()
        harness.binoban.applicationDidFinishLaunching(version: version, build: build)
        #expect(await harness.binoban.flushAndWait().outcome == .completed)
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(5))
        #expect(harness.reports.all.isEmpty, "\(harness.reports.all)")
        return try harness.uploadedEvents()
    }

    @Test("First run: Installed then Opened; a restart with the same build: only Opened (real file store)")
    func installedThenOpenedOnly() async throws {
        let file = TemporaryIdentityFile()
        defer { file.remove() }

        let first = try await Self.launch(on: file.store, version: "1.0", build: "10", seed: 1)
        #expect(first.map(\.event) == ["Application Installed", "Application Opened"])
        #expect(first[0].properties == ["version": "1.0", "build": "10"])
        #expect(first[1].properties == ["from_background": false, "version": "1.0", "build": "10"])
        let persisted = try file.store.load().values
        #expect(persisted["applicationVersion"] == "1.0")
        #expect(persisted["applicationBuild"] == "10")
        #expect(persisted["anonymousId"] == first[0].anonymousId, "the identity is saved in the same snapshot")

        let second = try await Self.launch(on: file.store, version: "1.0", build: "10", seed: 2)
        #expect(second.map(\.event) == ["Application Opened"])
        #expect(second[0].properties == ["from_background": false, "version": "1.0", "build": "10"])
        #expect(second[0].anonymousId == first[0].anonymousId)
    }

    @Test("A restart with a new build: Updated with the previous version and build, then Opened")
    func updatedAcrossRestart() async throws {
        let file = TemporaryIdentityFile()
        defer { file.remove() }

        _ = try await Self.launch(on: file.store, version: "1.0", build: "10", seed: 1)
        let updated = try await Self.launch(on: file.store, version: "1.1", build: "11", seed: 2)
        #expect(updated.map(\.event) == ["Application Updated", "Application Opened"])
        #expect(
            updated[0].properties
                == ["version": "1.1", "build": "11", "previous_version": "1.0", "previous_build": "10"])
        #expect(updated[1].properties == ["from_background": false, "version": "1.1", "build": "11"])

        let third = try await Self.launch(on: file.store, version: "1.1", build: "11", seed: 3)
        #expect(third.map(\.event) == ["Application Opened"], "the update is reported once")
    }

    @Test("Background tracks Backgrounded and uploads it without a flush call; foreground after it is Opened")
    func backgroundUploadsAndForegroundReopens() async throws {
        let harness = PipelineHarness()
        await harness.settle()
        harness.binoban.applicationDidFinishLaunching(version: "2.0", build: "200")
        harness.binoban.track(name: "work")
        try await harness.storage.waitForStoredEvents(count: 3)
        #expect(harness.transport.requests.isEmpty, "flushAt 20 and a one-hour interval: nothing uploads by itself")

        harness.binoban.applicationDidEnterBackground()
        _ = try await harness.transport.waitForRequests(count: 1)
        #expect(
            try Self.events(ofRequest: 0, in: harness.transport).map(\.event) == [
                "Application Installed", "Application Opened", "work", "Application Backgrounded",
            ])

        harness.binoban.applicationWillEnterForeground()
        await harness.binoban.flushAndWait()
        let reopened = try Self.events(ofRequest: 1, in: harness.transport)
        #expect(reopened.map(\.event) == ["Application Opened"])
        #expect(reopened.first?.properties == ["from_background": true, "version": "2.0", "build": "200"])
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("A second launch, a foreground without background and a second background are ignored")
    func duplicatesIgnored() async throws {
        let harness = PipelineHarness()
        await harness.settle()
        let binoban = harness.binoban
        binoban.applicationDidFinishLaunching(version: "1.0", build: "10")
        binoban.applicationDidFinishLaunching(version: "1.0", build: "10")
        binoban.applicationWillEnterForeground()
        binoban.applicationDidEnterBackground()
        binoban.applicationDidEnterBackground()
        binoban.applicationWillEnterForeground()
        binoban.applicationWillEnterForeground()
        await binoban.flushAndWait()
        #expect(
            try harness.uploadedEvents().map(\.event) == [
                "Application Installed", "Application Opened", "Application Backgrounded", "Application Opened",
            ])
        _ = await binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("Launches from many threads at once give one Installed and one Opened")
    func concurrentLaunches() async throws {
        let harness = PipelineHarness()
        await harness.settle()
        let binoban = harness.binoban
        await withTaskGroup(of: Void.self) { group in
            for index in 0..<16 {
                group.addTask {
                    binoban.applicationDidFinishLaunching(version: "1.0", build: "10")
                    binoban.track(name: "t\(index)")
                    binoban.applicationDidEnterBackground()
                    binoban.applicationWillEnterForeground()
                }
            }
        }
        await binoban.flushAndWait()
        let names = try harness.uploadedEvents().compactMap(\.event)
        #expect(names.filter { $0 == "Application Installed" }.count == 1)
        #expect(names.filter { $0.hasPrefix("t") }.count == 16)
        let lifecycle = names.filter { $0.hasPrefix("Application") && $0 != "Application Installed" }
        // Opened (launch) first; then backgrounds and foregrounds strictly alternate.
        #expect(lifecycle.first == "Application Opened")
        for (earlier, later) in zip(lifecycle, lifecycle.dropFirst()) {
            #expect(earlier != later, "\(lifecycle)")
        }
        _ = await binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("Tracking off: no lifecycle event, background still uploads, and version and build are still kept")
    func trackingOff() async throws {
        let file = TemporaryIdentityFile()
        defer { file.remove() }
        let harness = PipelineHarness(keyValueStore: file.store) { $0.trackApplicationLifecycleEvents = false }
        await harness.settle()
        harness.binoban.applicationDidFinishLaunching(version: "1.0", build: "10")
        harness.binoban.track(name: "work")
        harness.binoban.applicationDidEnterBackground()
        _ = try await harness.transport.waitForRequests(count: 1)
        harness.binoban.applicationWillEnterForeground()
        await harness.binoban.flushAndWait()
        #expect(try harness.uploadedEvents().map(\.event) == ["work"])
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
        #expect(try file.store.load().values["applicationBuild"] == "10")

        // Turning tracking on later does not mistake this installation for a new one.
        let later = try await Self.launch(on: file.store, version: "1.0", build: "10", seed: 5)
        #expect(later.map(\.event) == ["Application Opened"])
    }

    @Test("A paused instance drops lifecycle events and does not upload on background, but keeps the release")
    func pausedInstance() async throws {
        let store = InMemoryKeyValueStore()
        let harness = PipelineHarness(keyValueStore: store)
        await harness.settle()
        let binoban = harness.binoban
        binoban.track(name: "before-pause")
        try await harness.storage.waitForStoredEvents(count: 1)
        binoban.enabled = false
        binoban.applicationDidFinishLaunching(version: "1.0", build: "10")
        binoban.applicationDidEnterBackground()
        binoban.applicationWillEnterForeground()
        #expect(await binoban.flushAndWait().outcome == .paused, "the background flush came first and was refused too")
        #expect(harness.transport.requests.isEmpty)

        binoban.enabled = true
        await binoban.flushAndWait()
        #expect(try harness.uploadedEvents().map(\.event) == ["before-pause"])
        _ = await binoban.shutdown(gracePeriod: .seconds(1))
        #expect(try store.load().values["applicationBuild"] == "10")
    }

    @Test("A disabled instance ignores every lifecycle call and writes nothing")
    func disabledInstance() async throws {
        let store = InMemoryKeyValueStore()
        let harness = PipelineHarness(keyValueStore: store) { $0.apiHost = "  " }
        #expect(!harness.binoban.isOperational)
        harness.binoban.applicationDidFinishLaunching(version: "1.0", build: "10")
        harness.binoban.applicationDidEnterBackground()
        harness.binoban.applicationWillEnterForeground()
        #expect(await harness.binoban.flushAndWait().outcome == .paused)
        #expect(harness.transport.requests.isEmpty)
        #expect(try store.load().values.isEmpty)
    }

    @Test("A blank version and build are reported, sent as empty strings, and not taken as a new install later")
    func blankValues() async throws {
        let store = InMemoryKeyValueStore()
        let harness = PipelineHarness(keyValueStore: store)
        await harness.settle()
        harness.binoban.applicationDidFinishLaunching(version: " ", build: "")
        await harness.binoban.flushAndWait()
        #expect(harness.reports.kinds() == [.configurationAdjusted])
        let events = try harness.uploadedEvents()
        #expect(events.map(\.event) == ["Application Installed", "Application Opened"])
        #expect(events.first?.properties == ["version": "", "build": ""])
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))

        let next = PipelineHarness(keyValueStore: store, random: SeededRandomSource(seed: 3))
        await next.settle()
        next.binoban.applicationDidFinishLaunching(version: "", build: "")
        await next.binoban.flushAndWait()
        #expect(try next.uploadedEvents().map(\.event) == ["Application Opened"])
        _ = await next.binoban.shutdown(gracePeriod: .seconds(1))
    }
}
