import BinobanCoreTesting
import Foundation
import Testing

/// The README's Binoban quick start, kept here so that it compiles and runs with every `swift test`.
///
/// The body of each test is the README's code block with the fewest changes that keep the test off the
/// network and out of the user's home directory; every changed line says so in a comment. If the README
/// changes, change it here too (and the other way round).
@Suite("README: the Binoban quick start")
struct BinobanReadmeSnippetTests {
    @Test("The quick start uploads the identify and the track, keeps the identity and shuts down")
    func quickStart() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("binoban-readme-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        let ingest = ScriptedTransport()
        let reports = LockedValue<[BinobanError]>([])

        // README, verbatim from here, except the three lines marked "differs".
        let binoban = BinobanFactory.shared.create(apiKey: "YOUR_API_KEY", sourceIdentifier: "YOUR_SOURCE_ID") {
            config in
            config.apiHost = "api.binoban.io"
            // differs: the README installs `URLSessionEventTransport()` (BinobanCoreURLSession). This test target
            // does not depend on that product and must not reach the network, so a scripted ingest answers 200.
            config.transport = ingest
            // differs: not in the README, which keeps the default directory (the user's data directory); a test
            // must not write there.
            config.storageDirectory = directory
            // differs: the README prints each report; the test collects them to check that there are none.
            config.errorHandler = { error in reports.withLock { $0.append(error) } }
        }

        binoban.identify(userId: "user_123", traits: ["email": "test@example.com"])
        binoban.track(name: "purchase", properties: ["item": "shoes", "price": "49.99"])
        print("anonymousId:", binoban.anonymousId(), "userId:", binoban.userId() ?? "none")

        let result = await binoban.flushAndWait()  // returns once every stored event is uploaded (or kept for a retry)
        print("flush:", result.outcome, "events uploaded:", result.uploadedEvents)

        await binoban.shutdown(gracePeriod: .seconds(5))  // at exit: a last flush, then the instance stops
        // README ends here.

        #expect(result.outcome == .completed)
        let uploaded = try ingest.uploadedEvents()
        #expect(uploaded.map(\.type) == ["identify", "track"])
        #expect(uploaded.last?.event == "purchase")
        #expect(uploaded.last?.properties == ["item": "shoes", "price": "49.99"])
        #expect(uploaded.allSatisfy { $0.userId == "user_123" && $0.anonymousId == binoban.anonymousId() })
        #expect(uploaded.first?.traits == ["email": "test@example.com"])
        #expect(binoban.userId() == "user_123")
        #expect(reports.withLock { $0 }.isEmpty)

        // The identity is durable: a later instance over the same directory is the same person.
        let restarted = BinobanFactory.shared.create(apiKey: "YOUR_API_KEY", sourceIdentifier: "YOUR_SOURCE_ID") {
            config in
            config.apiHost = "api.binoban.io"
            config.transport = ingest
            config.storageDirectory = directory
            config.startsAutomatically = false
        }
        #expect(restarted.userId() == "user_123")
        #expect(restarted.anonymousId() == binoban.anonymousId())
        await restarted.shutdown(gracePeriod: .seconds(5))
    }

    /// The README once promised "both events" while the quick start also uploads what earlier runs left in
    /// the data directory; it now says so, and this test runs the quick start over such a directory.
    @Test("The quick start over a directory an earlier run left an event in uploads that event too")
    func quickStartUploadsEarlierRunsLeftovers() async throws {
        let directory = FileManager.default.temporaryDirectory
            .appendingPathComponent("binoban-readme-\(UUID().uuidString)", isDirectory: true)
        defer { try? FileManager.default.removeItem(at: directory) }
        // An earlier run whose ingest was down: its event stays in the directory.
        let earlier = BinobanFactory.shared.create(apiKey: "YOUR_API_KEY", sourceIdentifier: "YOUR_SOURCE_ID") {
            config in
            config.apiHost = "api.binoban.io"
            config.transport = ScriptedTransport(defaultAnswer: 503)
            config.uploadMaxRetries = 0
            config.storageDirectory = directory
        }
        earlier.track(name: "earlier_run")
        #expect(await earlier.flushAndWait().outcome == .keptForRetry)
        _ = await earlier.shutdown(gracePeriod: .zero)

        let ingest = ScriptedTransport()
        // The README's block, with the transport and the directory of the test above.
        let binoban = BinobanFactory.shared.create(apiKey: "YOUR_API_KEY", sourceIdentifier: "YOUR_SOURCE_ID") {
            config in
            config.apiHost = "api.binoban.io"
            config.transport = ingest
            config.storageDirectory = directory
        }
        binoban.identify(userId: "user_123", traits: ["email": "test@example.com"])
        binoban.track(name: "purchase", properties: ["item": "shoes", "price": "49.99"])
        let result = await binoban.flushAndWait()
        // Read before the shutdown: the flush returned only once the earlier run's event was sent too.
        let uploaded = try ingest.uploadedEvents()
        await binoban.shutdown(gracePeriod: .seconds(5))

        #expect(result.outcome == .completed)
        #expect(uploaded.map(\.type) == ["track", "identify", "track"])
        #expect(uploaded.map(\.event) == ["earlier_run", nil, "purchase"])
        // Uploaded by the start's own pass or by the flush: either way, before the flush returned.
        #expect(result.uploadedEvents >= 2)
    }

    @Test("The README's two push lines register the token and report the tap through the instance")
    func pushEntryPoints() async throws {
        let ingest = ScriptedTransport()
        var configuration = Configuration(apiKey: "YOUR_API_KEY", sourceIdentifier: "YOUR_SOURCE_ID")
        configuration.apiHost = "api.binoban.io"
        configuration.transport = ingest
        configuration.storage = InMemoryEventStorage()
        configuration.keyValueStore = InMemoryKeyValueStore()
        let binoban = Binoban.create(configuration: configuration)
        // differs: the README calls `BinobanNotifications.shared`, the layer bound to the app's first instance.
        // Tests run in parallel in one process, so this test binds a layer of its own instead.
        let notifications = BinobanNotifications()
        notifications.attach(binoban)
        let fcmToken = "fcm-token-1"
        let userInfo = BinobanPushPayload(notificationUuid: "n-1", title: "Sale", body: "Today only", uri: "app://sale")
            .userInfo()

        // README (with `notifications` for `BinobanNotifications.shared`):
        notifications.onNewToken(token: fcmToken)  // from MessagingDelegate
        notifications.onDidReceiveForwarded(userInfo: userInfo, actionId: nil, dismissed: false)  // a tap

        await binoban.flushAndWait()
        let events = try ingest.uploadedEvents()
        #expect(events.map(\.event) == ["bb_notification_registered", "bb_notification_clicked"])
        #expect(events.first?.properties?["token"] == "fcm-token-1")
        #expect(events.last?.context["device"]?["token"] == "fcm-token-1")
        await binoban.shutdown(gracePeriod: .seconds(1))
    }
}
