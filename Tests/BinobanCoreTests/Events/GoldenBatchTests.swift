import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

@Suite("Wire format")
struct GoldenBatchTests {
    static let context = BinobanStaticContext(
        app: .init(name: "Demo", version: "1.2", build: "42", namespace: "io.example.demo"),
        device: .init(manufacturer: "Apple", model: "iPhone15,2", type: "ios"),
        os: .init(name: "iOS", version: "17.5"),
        locale: "en-US",
        timezone: "Europe/Berlin"
    )

    @Test("A golden batch matches the Segment tracking-API shape field by field (decoded with JSONDecoder)")
    func goldenBatch() async throws {
        let harness = PipelineHarness(random: SequentialRandomSource()) { config in
            config.contextProvider = FixedContextProvider(Self.context)
        }
        let binoban = harness.binoban
        await harness.settle()
        binoban.identify(userId: "user_123", traits: ["email": "test@example.com"])
        harness.clock.advance(by: .milliseconds(1004))
        binoban.track(
            name: "purchase",
            properties: ["item": "shoes", "price": "49.99", "qty": 2, "nested": ["a": [1, 2.5, nil, true]]])
        binoban.setDeviceToken(token: "fcm:AAA")
        binoban.server.screen(title: "Home", properties: ["from": "menu"])
        try await harness.storage.waitForStoredEvents(count: 4)
        harness.clock.advance(by: .seconds(29))
        let result = await binoban.flushAndWait()
        #expect(result.outcome == .completed)
        #expect(result.uploadedEvents == 4)

        let request = try #require(harness.transport.requests.last)
        #expect(request.url.absoluteString == "https://api.binoban.io/b")
        #expect(request.method == "POST")
        #expect(request.headers["Content-Type"] == "application/json")
        #expect(request.headers["User-Agent"] == "binoban-core-swift/\(Binoban.version)")
        #expect(request.headers["Authorization"] == "Basic " + Data("KEY:".utf8).base64EncodedString())

        let envelope = try JSONDecoder().decode([String: JSONValue].self, from: request.body)
        #expect(Set(envelope.keys) == ["batch", "sentAt", "writeKey"])
        #expect(envelope["writeKey"] == "SOURCE")
        #expect(envelope["sentAt"] == "2026-08-02T12:00:30.004Z")
        let batch = try #require(envelope["batch"]?.arrayValue)
        #expect(batch.count == 4)

        let deviceId = binoban.deviceId()
        let anonymousId = binoban.anonymousId()
        func context(token: String?) -> JSONValue {
            var device: [String: JSONValue] = [
                "manufacturer": "Apple", "model": "iPhone15,2", "type": "ios", "id": .string(deviceId),
            ]
            if let token { device["token"] = .string(token) }
            return [
                "library": ["name": "binoban-core-swift", "version": .string(Binoban.version)],
                "app": ["name": "Demo", "version": "1.2", "build": "42", "namespace": "io.example.demo"],
                "os": ["name": "iOS", "version": "17.5"],
                "locale": "en-US",
                "timezone": "Europe/Berlin",
                "device": .object(device),
            ]
        }
        let identify = batch[0]
        #expect(
            Set(identify.objectValue?.keys.map { $0 } ?? []) == [
                "type", "messageId", "timestamp", "anonymousId", "userId", "traits", "context",
            ])
        #expect(identify["type"] == "identify")
        #expect(identify["timestamp"] == "2026-08-02T12:00:00.000Z")
        #expect(identify["anonymousId"] == .string(anonymousId))
        #expect(identify["userId"] == "user_123")
        #expect(identify["traits"] == ["email": "test@example.com"])
        #expect(identify["context"] == context(token: nil))

        let track = batch[1]
        #expect(track["type"] == "track")
        #expect(track["event"] == "purchase")
        #expect(
            track["properties"] == ["item": "shoes", "price": "49.99", "qty": 2, "nested": ["a": [1, 2.5, nil, true]]])
        #expect(track["timestamp"] == "2026-08-02T12:00:01.004Z")
        #expect(track["userId"] == "user_123")
        #expect(track["traits"] == nil)
        #expect(track["context"] == context(token: nil))

        let registered = batch[2]
        #expect(registered["event"] == "bb_notification_registered")
        #expect(registered["properties"] == ["token": "fcm:AAA"])
        #expect(registered["context"] == context(token: "fcm:AAA"))

        let screen = batch[3]
        #expect(screen["type"] == "screen")
        #expect(screen["name"] == "Home")
        #expect(screen["properties"] == ["from": "menu"])

        let ids = batch.compactMap { $0["messageId"]?.stringValue }
        #expect(Set(ids).count == 4)
        for id in ids + [anonymousId, deviceId] {
            #expect(id.wholeMatch(of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)
        }
        _ = await binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test(
        "userId is omitted when blank, traits when empty, and no event carries _metadata or integrations; the typed decoder reads every event"
    )
    func omissions() async throws {
        let harness = PipelineHarness()
        await harness.settle()
        harness.binoban.identify(userId: "  ", traits: [:])
        harness.binoban.track(name: "a")
        await harness.binoban.flushAndWait()
        let events = try harness.uploadedEvents()
        #expect(events.count == 2)
        #expect(events.allSatisfy { $0.userId == nil })
        #expect(events[0].traits == nil)
        #expect(events[1].properties == [:])
        #expect(events.allSatisfy { $0.metadata == nil && $0.integrations == nil })
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("Strings are escaped so that JSONDecoder reads back exactly what was tracked")
    func escaping() async throws {
        let harness = PipelineHarness()
        await harness.settle()
        let tricky = "quote\" backslash\\ newline\n tab\t bell\u{07} emoji 🚀 é"
        harness.binoban.track(name: tricky, properties: [tricky: .string(tricky)])
        await harness.binoban.flushAndWait()
        let event = try #require(try harness.uploadedEvents().first)
        #expect(event.event == tricky)
        #expect(event.properties == [tricky: .string(tricky)])
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("Message ids are lower-case UUID v4 strings built from random bits")
    func messageIds() {
        let id = MessageID(high: 0x0123_4567_89AB_CDEF, low: 0xFEDC_BA98_7654_3210)
        #expect(id.text == "01234567-89ab-4def-bedc-ba9876543210")
        // Written into an event's bytes, after what is already there, the same characters.
        var bytes = Array(#"{"messageId":""#.utf8)
        id.append(to: &bytes)
        #expect(String(decoding: bytes, as: UTF8.self) == #"{"messageId":"01234567-89ab-4def-bedc-ba9876543210"#)
        let random = SeededRandomSource(seed: 1)
        let ids = (0..<1000).map { _ in MessageID.make(from: random) }
        #expect(Set(ids).count == 1000)
        #expect(ids.allSatisfy { UUID(uuidString: $0) != nil && $0 == $0.lowercased() })
    }

    @Test("[String: Any] properties are converted; what JSON cannot carry is dropped and reported")
    func anyConversion() async throws {
        let harness = PipelineHarness()
        await harness.settle()
        struct Opaque {}
        let properties: [String: Any] = [
            "item": "shoes", "price": 49.99, "at": Date(timeIntervalSince1970: 0), "bad": Opaque(),
        ]
        harness.binoban.track(name: "purchase", properties: properties)
        await harness.binoban.flushAndWait()
        let event = try #require(try harness.uploadedEvents().first)
        #expect(event.properties == ["item": "shoes", "price": 49.99, "at": "1970-01-01T00:00:00.000Z"])
        let report = try #require(harness.reports.all.first { $0.kind == .propertyConversion })
        #expect(report.message.contains("bad"))
        _ = await harness.binoban.shutdown(gracePeriod: .seconds(1))
    }
}
