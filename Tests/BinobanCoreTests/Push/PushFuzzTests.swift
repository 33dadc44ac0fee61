import BinobanCore
import TestSupport
import Testing

/// Builds random `userInfo` dictionaries: random nesting, value types and keys, including near-miss sources.
private struct UserInfoGenerator {
    var random: SplitMix64

    static let nearMissSources: [String] = [
        "Binoban", "BINOBAN", " binoban", "binoban ", "binoban\n", "binoban\u{0}", "binobann", "binoba",
        "bin\u{00F6}ban",
        "binoban\u{0301}", "b\u{200B}inoban", "", "binoban_cd_", "source", "\u{FEFF}binoban",
    ]
    static let keys: [String] = [
        "binoban_notification_uuid", "binoban_title", "binoban_body", "binoban_uri", "binoban_actions",
        "binoban_action_uri_a", "binoban_action_uri_", "binoban_cd_", "binoban_cd_x", "binoban_cd_\u{0301}", "Source",
        "source ", "sourc", "SOURCE", "data", "aps", "gcm.message_id", "", "\"", "\n", "👩‍👩‍👧", "id", "title", "uri",
    ]

    mutating func int(_ bound: Int) -> Int { Int(random.next() % UInt64(bound)) }
    mutating func chance(_ percent: Int) -> Bool { int(100) < percent }

    mutating func string() -> String {
        switch int(6) {
        case 0: return Self.nearMissSources[int(Self.nearMissSources.count)]
        case 1: return Self.keys[int(Self.keys.count)]
        case 2: return #"[{"id":"a","title":"A","uri":"app://a"},{"id":"b"},1,{"id":"c"},{"id":"d"}]"#
        case 3: return "[{"
        default:
            let alphabet: [Character] = ["a", "b", "\"", "\\", "\n", "é", "\u{0301}", "🇩🇪", " ", "{", "[", "\u{0}"]
            return String((0..<int(8)).map { _ in alphabet[int(alphabet.count)] })
        }
    }

    mutating func key() -> AnyHashable {
        switch int(10) {
        case 0: return AnyHashable(int(5))
        case 1: return AnyHashable(chance(50))
        case 2...5: return AnyHashable(Self.keys[int(Self.keys.count)])
        default: return AnyHashable(string())
        }
    }

    mutating func value(depth: Int) -> Any {
        switch int(depth > 2 ? 7 : 10) {
        case 0: return string()
        case 1: return int(1000) - 500
        case 2: return [Double.nan, .infinity, -0.0, 1.5, .greatestFiniteMagnitude][int(5)]
        case 3: return chance(50)
        case 4: return Optional<String>.none as Any
        case 5: return UInt64.max
        case 6: return Substring(string())
        case 7: return dictionary(depth: depth + 1) as [AnyHashable: Any]
        case 8: return (0..<int(4)).map { _ in value(depth: depth + 1) }
        default: return ["id": string(), "title": string(), "uri": string()] as [String: Any]
        }
    }

    mutating func dictionary(depth: Int) -> [AnyHashable: Any] {
        var result: [AnyHashable: Any] = [:]
        for _ in 0..<int(6) { result[key()] = value(depth: depth) }
        return result
    }

    /// A top-level `userInfo`. `binoban` decides whether `source` is exactly the string `binoban`; otherwise it
    /// is absent, a near miss, or not a string.
    mutating func userInfo(binoban: Bool) -> [AnyHashable: Any] {
        var result = dictionary(depth: 0)
        result["source"] = nil
        if binoban {
            result["source"] = "binoban"
            if chance(80) { result["binoban_notification_uuid"] = chance(90) ? "n-\(int(50))" : value(depth: 2) }
        } else {
            switch int(4) {
            case 0: break
            case 1: result["source"] = Self.nearMissSources[int(Self.nearMissSources.count)]
            case 2: result["source"] = value(depth: 3) is String ? 0 : value(depth: 3)
            default: result[AnyHashable(Substring("source"))] = "binoban"
            }
            if chance(80) { result["binoban_notification_uuid"] = "n-\(int(50))" }
        }
        return result
    }
}

/// Counts interactions and remembers the last one.
private final class CountingHandler: NotificationInteractionHandler, Sendable {
    private let state = LockedValue<(count: Int, last: NotificationInteraction?)>((0, nil))
    func onNotificationInteraction(interaction: NotificationInteraction) {
        state.withLock { $0 = ($0.count + 1, interaction) }
    }
    var count: Int { state.withLock { $0.count } }
    var last: NotificationInteraction? { state.withLock { $0.last } }
}

@Suite("Push payload fuzzing")
struct PushFuzzTests {
    @Test("100,000 random userInfo dictionaries never crash, and non-Binoban ones never yield an event or dispatch")
    func randomUserInfo() {
        var generator = UserInfoGenerator(random: SplitMix64(seed: 0x5EED_B1B0_BA17))
        let (notifications, target, _) = makeAttachedLayer(options: .init(deliveredMemory: 8))
        let handler = CountingHandler()
        var binobanCount = 0
        var lastEventCount = 0
        for iteration in 0..<100_000 {
            let binoban = generator.chance(30)
            let userInfo = generator.userInfo(binoban: binoban)
            // Default handler (tracks) and a counting app handler take turns.
            if iteration % 2 == 0 {
                notifications.interactionManager.setHandler(handler: handler)
            } else {
                notifications.interactionManager.resetToDefault()
            }
            let dispatchesBefore = handler.count
            switch iteration % 4 {
            case 0:
                notifications.onWillPresentForwarded(userInfo: userInfo)
            case 3:
                // The JSON path: the whole dictionary is converted and parsed, whatever its source.
                notifications.onNotificationOpened(userInfo: JSONValue.convert(any: userInfo).value)
            case 1:
                notifications.onDidReceiveForwarded(
                    userInfo: userInfo, actionId: generator.chance(50) ? "a" : nil, dismissed: generator.chance(30))
            default:
                let strings = Dictionary(
                    userInfo.compactMap { key, value in (key.base as? String).map { ($0, value) } },
                    uniquingKeysWith: { first, _ in first }
                )
                notifications.onDidReceiveForwarded(userInfo: strings, actionId: "b", dismissed: false)
            }
            let eventCount = target.calls.count
            if binoban {
                binobanCount += 1
                if handler.count > dispatchesBefore, let last = handler.last {
                    // The uuid may have been given as a String or a Substring; both are strings in JSON.
                    let expected = userInfo["binoban_notification_uuid"].map { JSONValue.convert(any: $0).value }
                    #expect(expected == .string(last.notificationUuid))
                }
            } else if eventCount != lastEventCount || handler.count != dispatchesBefore {
                Issue.record("iteration \(iteration): a non-Binoban payload yielded an event or a dispatch")
                return
            }
            lastEventCount = eventCount
        }
        #expect(binobanCount > 25_000)
        #expect(target.calls.count > 1_000)
        #expect(handler.count > 1_000)
        _ = notifications.interactionManager.drainPendingInteractions()
    }

    @Test("Random JSON values never crash the parser; only an exact source counts")
    func randomJSONValues() {
        var generator = UserInfoGenerator(random: SplitMix64(seed: 7))
        for _ in 0..<20_000 {
            let binoban = generator.chance(30)
            let converted = JSONValue.convert(any: generator.userInfo(binoban: binoban)).value
            let result = BinobanPushPayload.parse(converted)
            if !binoban { #expect(result == .notBinoban) } else { #expect(result != .notBinoban) }
            if let payload = result.payload {
                #expect(payload.actions.count <= BinobanPushPayload.maximumActionCount)
                #expect(BinobanPushPayload.parse(payload.userInfo()).payload == payload)
            }
        }
    }
}
