import FalconCore
import Foundation
import Testing

@Suite("Beacon encoding (spec §f)")
struct FalconBeaconTests {
    /// The oracle: `JSONEncoder` with `.sortedKeys`, absent strings encoded as `null`.
    struct Oracle: Encodable {
        var sdkv: String
        var code: String
        var placement: String?
        var layoutId: String?
        var platform: String
        var ts: Int64

        enum CodingKeys: String, CodingKey { case sdkv, code, placement, layoutId, platform, ts }

        func encode(to encoder: any Encoder) throws {
            var container = encoder.container(keyedBy: CodingKeys.self)
            try container.encode(sdkv, forKey: .sdkv)
            try container.encode(code, forKey: .code)
            try container.encode(placement, forKey: .placement)
            try container.encode(layoutId, forKey: .layoutId)
            try container.encode(platform, forKey: .platform)
            try container.encode(ts, forKey: .ts)
        }
    }

    static func oracle(_ beacon: FalconBeacon) throws -> Data {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.sortedKeys]
        return try encoder.encode(
            Oracle(
                sdkv: beacon.sdkv, code: beacon.code.rawValue, placement: beacon.placement,
                layoutId: beacon.layoutId, platform: beacon.platform, ts: beacon.ts)
        )
    }

    @Test func specExampleIsExact() {
        let beacon = FalconBeacon(
            sdkv: "1.3.1", code: .webviewHTTPError, placement: "ORDER_STATUS",
            layoutId: "APP_NATIVE_ESSENTIAL_0.1", platform: "iOS", ts: 1_783_512_000_000)
        #expect(
            String(decoding: beacon.jsonBody(), as: UTF8.self)
                == #"{"code":"webviewHTTPError","layoutId":"APP_NATIVE_ESSENTIAL_0.1","placement":"ORDER_STATUS","platform":"iOS","sdkv":"1.3.1","ts":1783512000000}"#
        )
    }

    @Test(arguments: [
        ("ORDER_STATUS", "APP/NATIVE"),
        ("quote\" back\\slash", "tab\tnew\nline\rcr"),
        ("\u{08}\u{0C}\u{01}\u{1F}\u{7F}", "é 🦅 \u{2028} ✓"),
        ("", "x"),
    ])
    func bodyMatchesJSONEncoderByteForByte(_ placement: String, _ layoutId: String) throws {
        for code in FalconDiagnosticCode.allCases {
            let beacon = FalconBeacon(
                sdkv: "1.3.1", code: code, placement: placement, layoutId: layoutId,
                platform: "linux", ts: -5)
            #expect(beacon.jsonBody() == (try Self.oracle(beacon)))
        }
    }

    @Test func absentIdentifiersAreJSONNull() throws {
        let beacon = FalconBeacon(
            sdkv: "1.3.1", code: .attributeMappingFailed, placement: nil, layoutId: nil,
            platform: "linux", ts: 0)
        #expect(beacon.jsonBody() == (try Self.oracle(beacon)))
        let object = try JSONSerialization.jsonObject(with: beacon.jsonBody()) as? [String: Any]
        #expect(Set(object?.keys ?? [:].keys) == ["sdkv", "code", "placement", "layoutId", "platform", "ts"])
        #expect(object?["placement"] is NSNull)
    }

    @Test func capCountsGraphemeClusters() {
        let family = "👨‍👩‍👧‍👦"  // one Character, 7 scalars, 25 UTF-8 bytes
        let long = String(repeating: family, count: 200)
        let beacon = FalconBeacon(
            sdkv: "1.3.1", code: .noPresenter, placement: long,
            layoutId: String(repeating: "é", count: 128), platform: "linux", ts: 0)
        #expect(beacon.placement?.count == 128)
        #expect(beacon.placement == String(repeating: family, count: 128))
        #expect(beacon.layoutId?.count == 128)
        let exact = String(repeating: "x", count: 129)
        #expect(
            FalconBeacon(sdkv: "", code: .noPresenter, placement: exact, layoutId: nil, platform: "", ts: 0)
                .placement == String(repeating: "x", count: 128))
    }

    /// 128 characters, each a letter with 2 000 combining acute accents: 512 128 bytes of UTF-8. The cap keeps
    /// the whole characters that fit in 8 KiB.
    @Test func capHasAByteCeilingThatRealTextNeverReaches() {
        let heavy = "a" + String(repeating: "\u{0301}", count: 2_000)  // one Character, 4 001 bytes
        let placement = String(repeating: heavy, count: 128)
        #expect(placement.count == 128)
        #expect(placement.utf8.count == 512_128)
        let beacon = FalconBeacon(
            sdkv: "", code: .noPresenter, placement: placement, layoutId: heavy + "b", platform: "", ts: 0)
        let twoWhole = beacon.placement == heavy + heavy
        let untouched = beacon.layoutId == heavy + "b"
        #expect(twoWhole)
        #expect(untouched)

        // Not even one character fits: its first scalars up to the ceiling stay.
        let single = "e" + String(repeating: "\u{0301}", count: 100_000)
        let capped = FalconBeacon(sdkv: "", code: .noPresenter, placement: single, layoutId: nil, platform: "", ts: 0)
        let kept = capped.placement ?? ""
        #expect(kept.utf8.count == 8_191)
        #expect(kept.count == 1)
        let isScalarPrefix = single.utf8.starts(with: kept.utf8)  // not `#expect`ed directly: 8 KiB of marks
        #expect(isScalarPrefix)

        // The longest real characters (emoji ZWJ sequences with skin tones, 35 bytes) keep all 128.
        let kiss = "\u{1F469}\u{1F3FD}\u{200D}\u{2764}\u{FE0F}\u{200D}\u{1F48B}\u{200D}\u{1F468}\u{1F3FF}"
        #expect(kiss.count == 1 && kiss.utf8.count == 35)
        let kisses = FalconBeacon(
            sdkv: "", code: .noPresenter, placement: String(repeating: kiss, count: 200), layoutId: nil,
            platform: "", ts: 0)
        #expect(kisses.placement == String(repeating: kiss, count: 128))
    }

    @Test func millisecondsAreFlooredEpochMilliseconds() {
        #expect(
            FalconBeacon.milliseconds(since1970: Date(timeIntervalSince1970: 1_783_512_000.1239)) == 1_783_512_000_123)
    }
}
