import BinobanCoreTesting
import Foundation
import Testing

@testable import BinobanCore

@Suite("Server calls on the wire")
struct ServerEventEncodingTests {
    /// The events `harness` uploaded, as parsed JSON objects.
    static func uploaded(_ harness: PipelineHarness) throws -> [[String: JSONValue]] {
        try harness.transport.requests.flatMap { request in
            try JSONValue(parsing: request.body, limits: JSONParsingLimits(maximumBytes: 1 << 22))["batch"]?
                .arrayValue?.compactMap(\.objectValue) ?? []
        }
    }

    @Test("Each server call sends its spec type and members, its ids, and the per-call message fields")
    func everyCall() async throws {
        let harness = PipelineHarness(random: SequentialRandomSource()) { config in
            config.contextProvider = FixedContextProvider(GoldenBatchTests.context)
        }
        await harness.settle()
        let binoban = harness.binoban
        let fields = BinobanMessageFields(
            timestamp: Date(timeIntervalSince1970: 1_767_323_045.678), messageId: "id \"q\" \\ \u{1}",
            context: ["ip": "203.0.113.7", "library": ["name": "caller"], "os": ["name": "Linux"]],
            integrations: ["All": false, "Mixpanel": true])
        let user = BinobanEventIdentity(userId: "user-1")
        binoban.server.track(name: "Bought", properties: ["total": 9], as: user, fields: fields)
        binoban.server.identify(as: BinobanEventIdentity(userId: "user-2", anonymousId: "anon-2"))
        binoban.server.page(name: "Pricing", category: "Docs", properties: ["path": "/p"], as: user)
        binoban.server.screen(category: "Onboarding", as: BinobanEventIdentity(anonymousId: "anon-3"))
        binoban.server.group(groupId: "company-7", traits: ["seats": 3] as [String: Any], as: user)
        binoban.server.alias(userId: "user-1", previousId: "anon-3", fields: BinobanMessageFields(messageId: "a1"))
        _ = await binoban.flushAndWait()
        let events = try Self.uploaded(harness)
        #expect(events.map { $0["type"] } == ["track", "identify", "page", "screen", "group", "alias"])

        let track = events[0]
        #expect(track["event"] == "Bought" && track["properties"] == ["total": 9])
        #expect(track["messageId"] == "id \"q\" \\ \u{1}")
        #expect(track["timestamp"] == "2026-01-02T03:04:05.678Z")
        #expect(track["userId"] == "user-1" && track["anonymousId"] == nil)
        #expect(track["integrations"] == ["All": false, "Mixpanel": true])
        // The call's context over the instance's: `os` replaced, `ip` added, library the SDK's, and the
        // instance's static device members without its id or token.
        #expect(
            track["context"] == [
                "library": ["name": "binoban-core-swift", "version": .string(Binoban.version)],
                "app": ["name": "Demo", "version": "1.2", "build": "42", "namespace": "io.example.demo"],
                "os": ["name": "Linux"], "locale": "en-US", "timezone": "Europe/Berlin", "ip": "203.0.113.7",
                "device": ["manufacturer": "Apple", "model": "iPhone15,2", "type": "ios"],
            ])

        let identify = events[1]
        #expect(identify["userId"] == "user-2" && identify["anonymousId"] == "anon-2")
        #expect(identify["traits"] == [:])
        #expect(identify["integrations"] == nil)
        #expect(identify["context"]?["device"]?["id"] == nil)
        #expect(identify["timestamp"] == "2026-08-02T12:00:00.000Z")
        #expect(
            identify["messageId"]?.stringValue?.wholeMatch(
                of: /[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}/) != nil)

        let page = events[2]
        #expect(page["name"] == "Pricing" && page["category"] == "Docs" && page["properties"] == ["path": "/p"])
        let screen = events[3]
        #expect(screen["name"] == nil && screen["category"] == "Onboarding" && screen["properties"] == [:])
        #expect(screen["anonymousId"] == "anon-3" && screen["userId"] == nil)
        let group = events[4]
        #expect(group["groupId"] == "company-7" && group["traits"] == ["seats": 3])
        let alias = events[5]
        #expect(alias["userId"] == "user-1" && alias["previousId"] == "anon-3" && alias["anonymousId"] == nil)
        #expect(alias["messageId"] == "a1" && alias["properties"] == nil && alias["traits"] == nil)
        // The instance's identity is untouched.
        #expect(binoban.userId() == nil)
        _ = await binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("A per-call device replaces the instance's device whole; a mobile event still carries the device id")
    func deviceRule() async throws {
        let harness = PipelineHarness { config in
            config.contextProvider = FixedContextProvider(GoldenBatchTests.context)
        }
        await harness.settle()
        let binoban = harness.binoban
        binoban.server.track(
            name: "s", as: BinobanEventIdentity(userId: "u"),
            fields: BinobanMessageFields(context: ["device": ["id": "device-1", "type": "server"]]))
        binoban.track(name: "mobile")
        _ = await binoban.flushAndWait()
        let events = try Self.uploaded(harness)
        #expect(events[0]["context"]?["device"] == ["id": "device-1", "type": "server"])
        #expect(events[1]["context"]?["device"]?["id"] == .string(binoban.deviceId()))
        #expect(events[1]["context"]?["device"]?["manufacturer"] == "Apple")
        _ = await binoban.shutdown(gracePeriod: .seconds(1))
    }

    @Test("Neither id, or blank ones, falls back to the instance's anonymousId and no userId")
    func identityFallback() {
        let instance = IdentityState(
            anonymousId: "instance-anon", userId: "instance-user", traits: [:], deviceToken: "tok", deviceId: "dev")
        func ids(_ kind: PendingEvent.Kind, _ identity: BinobanEventIdentity?) -> [String?] {
            let result = EventIdentityRule.ids(for: kind, given: identity, instance: instance)
            return [result.anonymousId, result.userId]
        }
        #expect(ids(.track, BinobanEventIdentity()) == ["instance-anon", nil])
        #expect(ids(.page, BinobanEventIdentity(userId: " ", anonymousId: "")) == ["instance-anon", nil])
        #expect(ids(.track, BinobanEventIdentity(userId: "u")) == [nil, "u"])
        #expect(ids(.group, BinobanEventIdentity(userId: "u", anonymousId: "a")) == ["a", "u"])
        #expect(ids(.identify, BinobanEventIdentity(anonymousId: "a")) == ["a", nil])
        #expect(ids(.alias, BinobanEventIdentity(userId: "u", anonymousId: "a")) == [nil, "u"])
        #expect(ids(.screen, nil) == ["instance-anon", "instance-user"])
    }

    @Test("A per-call timestamp is truncated to the millisecond, also when a Date holds it a little below")
    func timestampMillis() {
        for millis: Int64 in [0, 1, 678, 999, 1_767_323_045_678, 1_767_323_045_999, 1_767_323_045_001, -1_500] {
            let date = Date(timeIntervalSince1970: Double(millis) / 1_000)
            #expect(BinobanMessageFields(timestamp: date).timestampMillis == millis, "\(millis)")
        }
        // Truncated, as Python truncates microseconds: .678901 and .678999 are both .678.
        for micro in [1_767_323_045.678901, 1_767_323_045.678999] {
            #expect(
                BinobanMessageFields(timestamp: Date(timeIntervalSince1970: micro)).timestampMillis == 1_767_323_045_678
            )
        }
        #expect(
            BinobanMessageFields(timestamp: Date(timeIntervalSince1970: 1e15)).timestampMillis == 253_402_300_799_999)
        #expect(
            BinobanMessageFields(timestamp: Date(timeIntervalSince1970: -1e15)).timestampMillis
                == -62_167_219_200_000)
        #expect(BinobanMessageFields().timestampMillis == nil)
        #expect(BinobanMessageFields(messageId: " ").hostMessageId == nil)
    }

    @Test("A mobile event's bytes are the same through the restructured encoder: the context prefix is unchanged")
    func mobileBytesUnchanged() {
        let encoder = EventEncoder(context: GoldenBatchTests.context, deviceId: "dev")
        let event = PendingEvent(
            kind: .track, name: "e", payload: ["a": 1], messageId: MessageID(high: 1, low: 2), timestampMillis: 0,
            anonymousId: "anon", userId: "u", deviceToken: "tok")
        let text = String(decoding: encoder.encode(event), as: UTF8.self)
        #expect(
            text
                == #"{"type":"track","event":"e","properties":{"a":1},"messageId":"00000000-0000-4001-8000-000000000002","#
                + #""timestamp":"1970-01-01T00:00:00.000Z","anonymousId":"anon","userId":"u","context":{"library":"#
                + #"{"name":"binoban-core-swift","version":"\#(Binoban.version)"},"app":{"name":"Demo","version":"1.2","#
                + #""build":"42","namespace":"io.example.demo"},"os":{"name":"iOS","version":"17.5"},"locale":"en-US","#
                + #""timezone":"Europe/Berlin","device":{"manufacturer":"Apple","model":"iPhone15,2","type":"ios","#
                + #""id":"dev","token":"tok"}}}"#)
        let bare = EventEncoder(context: BinobanStaticContext(), deviceId: nil)
        #expect(
            String(decoding: bare.encode(event), as: UTF8.self).hasSuffix(
                #""context":{"library":{"name":"binoban-core-swift","version":"\#(Binoban.version)"},"#
                    + #""device":{"id":"anon","token":"tok"}}}"#))
    }
}
