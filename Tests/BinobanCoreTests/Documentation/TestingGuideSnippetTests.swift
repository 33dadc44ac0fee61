import BinobanCoreTesting
import Foundation
import Testing

/// The examples of `Docs/Testing.md` (Binoban part), compiled and run with every `swift test`. Each test body
/// is the guide's code block; change both together.
@Suite("Docs/Testing.md: BinobanCoreTesting examples")
struct BinobanTestingGuideSnippetTests {
    /// An instance on virtual time with a scripted ingest, in-memory storage and a fixed context.
    static func makeInstance(
        clock: ManualClock,
        transport: ScriptedTransport,
        storage: any BinobanEventStorage = InMemoryEventStorage(),
        random: any BinobanRandomSource = FixedRandomSource(unitValues: [0.5])
    ) -> Binoban {
        var configuration = Configuration(apiKey: "KEY", sourceIdentifier: "SOURCE")
        configuration.apiHost = "api.binoban.io"
        configuration.transport = transport
        configuration.storage = storage
        configuration.keyValueStore = InMemoryKeyValueStore()
        configuration.clock = clock  // timers and backoff
        configuration.wallClock = clock  // event timestamps and sentAt
        configuration.randomSource = random  // identifiers and jitter
        configuration.contextProvider = FixedContextProvider()
        return Binoban.create(configuration: configuration)
    }

    @Test("A 503 is retried after the jittered backoff; the same batch goes twice")
    func retryAfterBackoff() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport(script: [503])  // then the default answer, 200
        // FixedRandomSource(unitValues: [0.5]) (the default here): every jitter draw is half the ceiling.
        let binoban = Self.makeInstance(clock: clock, transport: transport)
        await binoban.flushAndWait()  // the startup flush is over

        binoban.track(name: "purchase", properties: ["item": "shoes"])
        async let flushed = binoban.flushAndWait()
        let retryAt = clock.now.advanced(by: .milliseconds(500))  // 0.5 × backoffBase
        try await clock.waitUntilSleepers { $0.contains(retryAt) }  // the backoff is armed
        clock.advance(by: .milliseconds(500))

        #expect(await flushed.outcome == .completed)
        let batches = try transport.requests.map { try UploadedBatch.decode($0.body) }
        #expect(batches.count == 2)
        #expect(batches[0].batch == batches[1].batch)
        #expect(batches.map(\.sentAt) == ["2026-08-02T12:00:00.000Z", "2026-08-02T12:00:00.500Z"])
        await binoban.shutdown(gracePeriod: .zero)
    }

    @Test("Stored events are uploaded when the flush interval passes")
    func intervalFlush() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport()
        let storage = ObservableEventStorage(InMemoryEventStorage())
        let binoban = Self.makeInstance(clock: clock, transport: transport, storage: storage)
        await binoban.flushAndWait()

        binoban.track(name: "a")
        binoban.track(name: "b")
        try await storage.waitForStoredEvents(count: 2)  // written by the instance's task
        #expect(transport.requests.isEmpty)  // 2 < flushAt (20): nothing sent yet

        clock.advance(by: .seconds(30))  // the interval timer fires
        _ = try await transport.waitForRequests(count: 1)
        #expect(try transport.uploadedEvents().map(\.event) == ["a", "b"])
        await binoban.shutdown(gracePeriod: .zero)
    }

    @Test("identify and reset change the identity the next events carry")
    func identity() async throws {
        let clock = ManualClock()
        let transport = ScriptedTransport()
        let binoban = Self.makeInstance(clock: clock, transport: transport, random: SeededRandomSource(seed: 7))

        binoban.identify(userId: "user_123", traits: ["plan": "pro"])
        binoban.track(name: "logged_in")
        let before = binoban.anonymousId()
        binoban.reset()
        binoban.track(name: "logged_out")
        await binoban.flushAndWait()

        let events = try transport.uploadedEvents()
        #expect(events.map(\.userId) == ["user_123", "user_123", nil])
        #expect(events.map(\.anonymousId) == [before, before, binoban.anonymousId()])
        #expect(binoban.anonymousId() != before)
        await binoban.shutdown(gracePeriod: .zero)
    }

    @Test("A push scenario passes, and a wrong expectation names the field")
    func pushScenario() async throws {
        let document = """
            {
              "format": 1, "core": "binoban", "name": "button-tap",
              "description": "A button tap tracks bb_notification_clicked with that button's own uri.",
              "steps": [
                {"at": 0, "input": {"type": "onDidReceiveForwarded", "actionId": "yes", "userInfo": {
                  "source": "binoban", "binoban_notification_uuid": "n-1", "binoban_uri": "app://sale",
                  "binoban_actions": [{"id": "yes", "title": "Yes", "uri": "app://yes"}]}}},
                {"at": 10, "input": {"type": "flushAwait"}},
                {"at": 10, "input": {"type": "awaitFlush"}}
              ],
              "expect": [
                {"type": "request", "at": 10, "events": [{"event": "bb_notification_clicked",
                  "properties": {"notificationUuid": "n-1", "actionId": "yes", "uri": "app://yes"}}]},
                {"type": "flushResult", "at": 10, "outcome": "completed", "uploadedEvents": 1}
              ]
            }
            """
        let scenario = try BinobanScenarioDecoder.decode(Data(document.utf8))
        let result = await BinobanScenarioRunner.run(scenario)
        #expect(result.passed, "\(result.report)")

        // The main uri instead of the button's fails with the field and both values.
        var wrong = scenario
        wrong.expect[0] = ["type": "request", "events": [["properties": ["uri": "app://sale"]]]]
        let failed = await BinobanScenarioRunner.run(wrong)
        let reason = #"field "events[0].properties.uri": expected "app://sale", observed "app://yes""#
        #expect(failed.mismatch?.reason == reason)
    }
}
