import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

@Suite("Identity")
struct IdentityTests {
    @Test("anonymousId, userId, traits and the device token survive a restart (same store, new instance)")
    func restart() async throws {
        let store = InMemoryKeyValueStore()
        let first = PipelineHarness(keyValueStore: store)
        let anonymousId = first.binoban.anonymousId()
        let deviceId = first.binoban.deviceId()
        first.binoban.identify(userId: "user_1", traits: ["plan": "pro"])
        first.binoban.setDeviceToken(token: "tok")
        _ = await first.binoban.shutdown(gracePeriod: .seconds(5))

        let second = PipelineHarness(keyValueStore: store, random: SeededRandomSource(seed: 99))
        #expect(second.binoban.anonymousId() == anonymousId)
        #expect(second.binoban.userId() == "user_1")
        #expect(second.binoban.traits() == ["plan": "pro"])
        #expect(second.binoban.deviceId() == deviceId)
        await second.settle()
        second.binoban.track(name: "after-restart")
        await second.binoban.flushAndWait()
        let event = try #require(try second.uploadedEvents().first)
        #expect(event.anonymousId == anonymousId)
        #expect(event.userId == "user_1")
        #expect(event.context["device"]?["token"] == "tok")
        _ = await second.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("Entries this version does not know (written by a newer SDK) survive identity saves")
    func unknownEntriesSurvive() async throws {
        let store = InMemoryKeyValueStore()
        try await store.save(BinobanKeyValueSnapshot(values: ["anonymousId": "anon-1", "futureSetting": "kept"]))
        let harness = PipelineHarness(keyValueStore: store)
        harness.binoban.identify(userId: "user_1")
        harness.binoban.reset()
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(5))

        let saved = try store.load().values
        #expect(saved["futureSetting"] == "kept")
        #expect(saved["anonymousId"] != "anon-1")  // the reset was saved too
        #expect(saved["userId"] == nil)
    }

    @Test("reset() rotates the anonymousId and clears userId and traits; earlier events keep the old identity")
    func resetRotation() async throws {
        let harness = PipelineHarness()
        let binoban = harness.binoban
        await harness.settle()
        binoban.identify(userId: "user_1", traits: ["a": 1])
        let before = binoban.anonymousId()
        binoban.track(name: "before")
        binoban.reset()
        binoban.track(name: "after")
        #expect(binoban.anonymousId() != before)
        #expect(binoban.userId() == nil)
        #expect(binoban.traits() == [:])
        await binoban.flushAndWait()
        let events = try harness.uploadedEvents()
        #expect(events.map { $0.event ?? $0.type } == ["identify", "before", "after"])
        #expect(events[1].anonymousId == before)
        #expect(events[1].userId == "user_1")
        #expect(events[2].anonymousId == binoban.anonymousId())
        #expect(events[2].userId == nil)
        let persisted = try harness.keyValueStore.load().values
        #expect(persisted["anonymousId"] == binoban.anonymousId())
        #expect(persisted["userId"] == nil)
        _ = await binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("identify replaces traits; a blank userId keeps the current userId")
    func identifySemantics() async throws {
        let harness = PipelineHarness()
        let binoban = harness.binoban
        binoban.identify(userId: "u1", traits: ["a": 1, "b": 2])
        binoban.identify(userId: "", traits: ["c": 3])
        #expect(binoban.userId() == "u1")
        #expect(binoban.traits() == ["c": 3])
        binoban.identify(userId: "u2", traits: [String: Any]())
        #expect(binoban.userId() == "u2")
        #expect(binoban.traits() == [:])
        _ = await binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("An event keeps the identity of the moment it was accepted, even with identify right after")
    func identityAtAcceptance() async throws {
        let harness = PipelineHarness()
        await harness.settle()
        for index in 0..<50 {
            harness.binoban.track(name: "e\(index)")
            harness.binoban.identify(userId: "user_\(index)", traits: [:])
        }
        await harness.binoban.flushAndWait()
        let tracks = try harness.uploadedEvents().filter { $0.type == "track" }
        #expect(tracks.count == 50)
        for (index, event) in tracks.enumerated() {
            #expect(event.userId == (index == 0 ? nil : "user_\(index - 1)"))
        }
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("Per-call identity sets userId / anonymousId for one event without touching the instance")
    func perCallIdentity() async throws {
        let harness = PipelineHarness()
        await harness.settle()
        let own = harness.binoban.anonymousId()
        harness.binoban.track(
            name: "server", properties: ["x": 1], as: BinobanEventIdentity(userId: "customer-9", anonymousId: "anon-9"))
        harness.binoban.track(name: "server2", as: BinobanEventIdentity(userId: "customer-10"))
        harness.binoban.track(name: "own")
        await harness.binoban.flushAndWait()
        let events = try harness.uploadedEvents()
        #expect(events[0].userId == "customer-9")
        #expect(events[0].anonymousId == "anon-9")
        #expect(events[1].userId == "customer-10")
        // A userId alone sends no anonymousId: the instance's would be shared by every customer.
        #expect(events[1].anonymousId == nil)
        #expect(events[2].userId == nil)
        #expect(harness.binoban.userId() == nil)
        #expect(harness.binoban.anonymousId() == own)
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("Per-call identity covers identify and screen, with [String: Any] variants, without touching the instance")
    func perCallIdentifyAndScreen() async throws {
        let harness = PipelineHarness()
        await harness.settle()
        harness.binoban.identify(userId: "own-user", traits: ["plan": "own"])
        let own = harness.binoban.anonymousId()
        let customer = BinobanEventIdentity(userId: "customer-1", anonymousId: "anon-1")
        harness.binoban.identify(traits: ["plan": "pro"], as: customer)
        harness.binoban.identify(traits: ["seats": 3] as [String: Any], as: BinobanEventIdentity(userId: "customer-2"))
        harness.binoban.server.screen(title: "Checkout", properties: ["step": 2], as: customer)
        harness.binoban.server.screen(
            title: "Cart", properties: ["items": 1] as [String: Any], as: BinobanEventIdentity(userId: "customer-3"))
        harness.binoban.track(name: "bought", properties: ["total": 9] as [String: Any], as: customer)
        await harness.binoban.flushAndWait()

        let events = try harness.uploadedEvents().dropFirst()
        #expect(events.map(\.type) == ["identify", "identify", "screen", "screen", "track"])
        #expect(events.map(\.userId) == ["customer-1", "customer-2", "customer-1", "customer-3", "customer-1"])
        // A userId alone sends no anonymousId (not the instance's `own`).
        #expect(events.map(\.anonymousId) == ["anon-1", nil, "anon-1", nil, "anon-1"])
        #expect(!events.contains { $0.anonymousId == own })
        let list = Array(events)
        #expect(list[0].traits == ["plan": "pro"])
        #expect(list[1].traits == ["seats": 3])
        #expect(list[2].name == "Checkout" && list[2].properties == ["step": 2])
        #expect(list[3].name == "Cart" && list[3].properties == ["items": 1])
        #expect(list[4].properties == ["total": 9])
        // The instance's own identity and traits are untouched.
        #expect(harness.binoban.userId() == "own-user")
        #expect(harness.binoban.traits() == ["plan": "own"])
        #expect(harness.binoban.anonymousId() == own)
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test(
        "setDeviceToken ignores blanks, emits bb_notification_registered every time, and collectDeviceId=false uses anonymousId"
    )
    func deviceToken() async throws {
        let harness = PipelineHarness { $0.collectDeviceId = false }
        await harness.settle()
        harness.binoban.setDeviceToken(token: "  ")
        harness.binoban.setDeviceToken(token: "t1")
        harness.binoban.setDeviceToken(token: "t1")
        await harness.binoban.flushAndWait()
        let events = try harness.uploadedEvents()
        #expect(events.map(\.event) == ["bb_notification_registered", "bb_notification_registered"])
        #expect(events.allSatisfy { $0.properties == ["token": "t1"] && $0.context["device"]?["token"] == "t1" })
        #expect(events[0].context["device"]?["id"] == .string(harness.binoban.anonymousId()))
        #expect(harness.binoban.deviceId() == harness.binoban.anonymousId())
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }
}

@Suite("File key-value store")
struct FileKeyValueStoreTests {
    @Test("Saves atomically with owner-only permissions and loads what it saved")
    func roundTrip() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("binoban-kv-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        let file = directory.appendingPathComponent("ns.identity.json")
        let store = FileKeyValueStore(fileURL: file)
        #expect(try store.load().values.isEmpty)
        try await store.save(BinobanKeyValueSnapshot(values: ["anonymousId": "a", "traits": #"{"x":"\"y\""}"#]))
        try await store.save(BinobanKeyValueSnapshot(values: ["anonymousId": "b"]))
        #expect(try store.load().values == ["anonymousId": "b"])
        let attributes = try FileManager.default.attributesOfItem(atPath: file.path)
        #expect((attributes[.posixPermissions] as? NSNumber)?.intValue == 0o600)
        let directoryAttributes = try FileManager.default.attributesOfItem(atPath: directory.path)
        #expect((directoryAttributes[.posixPermissions] as? NSNumber)?.intValue == 0o700)
        #expect(try FileManager.default.contentsOfDirectory(atPath: directory.path) == ["ns.identity.json"])
    }

    @Test("A corrupt file is an error, and the instance starts a new identity with a report")
    func corrupt() async throws {
        let directory = FileManager.default.temporaryDirectory.appendingPathComponent("binoban-kv-\(UUID())")
        defer { try? FileManager.default.removeItem(at: directory) }
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let file = directory.appendingPathComponent("ns.identity.json")
        try Data("not json".utf8).write(to: file)
        #expect(throws: FileKeyValueStore.Failure.self) { try FileKeyValueStore(fileURL: file).load() }
        let harness = PipelineHarness(keyValueStore: FileKeyValueStore(fileURL: file))
        #expect(!harness.binoban.anonymousId().isEmpty)
        #expect(harness.reports.contains(.keyValueStore))
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
        #expect(try FileKeyValueStore(fileURL: file).load().values["anonymousId"] == harness.binoban.anonymousId())
    }
}
