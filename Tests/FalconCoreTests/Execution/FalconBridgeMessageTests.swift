@_spi(Tooling) import FalconCore
import Foundation
import Testing

@Suite("Bridge message decoder (spec §i Q2, §g)")
struct FalconBridgeMessageTests {
    @Test(arguments: [
        (#"{"type":"event","name":"loaded","data":{"height":120}}"#, FalconBridgeMessage.loaded(height: 120)),
        (#"{"type":"event","name":"loaded"}"#, .loaded(height: nil)),
        (#"{"type":"event","name":"loaded","data":{"height":-4}}"#, .loaded(height: nil)),
        (#"{"type":"event","name":"loaded","data":{"height":"tall"}}"#, .loaded(height: nil)),
        (#"{"type":"event","name":"height","data":{"height":33.5}}"#, .height(33.5)),
        (#"{"type":"event","name":"resize","data":{"height":0}}"#, .height(0)),
        (#"{"type":"event","name":"resize","data":{"height":-1}}"#, .ignored),
        (#"{"type":"event","name":"height","data":{}}"#, .ignored),
        (#"{"type":"event","name":"noFill"}"#, .noFill),
        (#"{"type":"event","name":"no_fill","data":null}"#, .noFill),
        (#"{"type":"event","name":"close","data":{"index":0,"closeType":"user"}}"#, .close),
        (#"{"type":"event","name":"error","data":{"message":"secret text"}}"#, .error),
        (
            #"{"type":"event","name":"click","data":{"index":1,"clickUrl":"https://x.example/a"}}"#,
            .click(URL(string: "https://x.example/a")!)
        ),
        (#"{"type":"event","name":"click","data":{"index":1}}"#, .ignored),
        (#"{"type":"event","name":"mystery"}"#, .ignored),
        (#"{"type":"log","name":"loaded"}"#, .ignored),
        (#"{"name":"loaded"}"#, .ignored),
        (#"["loaded"]"#, .ignored),
        ("not json at all", .ignored),
        ("", .ignored),
    ])
    func decodesJSONStrings(_ json: String, _ expected: FalconBridgeMessage) {
        #expect(FalconBridgeMessage.decode(json: json) == expected)
    }

    @Test func decodesDictionariesAndLooseValues() {
        let dictionary: [String: Any] = ["type": "event", "name": "height", "data": ["height": 44] as [String: Any]]
        #expect(FalconBridgeMessage.decode(any: dictionary) == .height(44))
        #expect(FalconBridgeMessage.decode(any: #"{"type":"event","name":"noFill"}"#) == .noFill)
        #expect(FalconBridgeMessage.decode(any: 42) == .ignored)
        #expect(
            FalconBridgeMessage.decode(["type": "event", "name": "loaded", "data": ["height": 1.5]])
                == .loaded(height: 1.5))
        #expect(FalconBridgeMessage.decode(["type": "event", "name": "height", "data": ["height": true]]) == .ignored)
    }

    /// A message that arrives as a value gets the limits of text: 64 KiB of compact JSON and 64 levels.
    @Test func dictionariesGetTheSizeLimitOfText() {
        func message(padding: Int) -> JSONValue {
            [
                "type": "event", "name": "loaded",
                "data": ["height": 12, "pad": .string(String(repeating: "x", count: padding))],
            ]
        }
        let base = message(padding: 0).jsonString().utf8.count
        let largest = message(padding: 65_536 - base)
        #expect(largest.jsonString().utf8.count == 65_536)
        #expect(FalconBridgeMessage.decode(largest) == .loaded(height: 12))
        #expect(FalconBridgeMessage.decode(json: largest.jsonString()) == .loaded(height: 12))
        let oneByteMore = message(padding: 65_536 - base + 1)
        #expect(FalconBridgeMessage.decode(oneByteMore) == .ignored)
        #expect(FalconBridgeMessage.decode(json: oneByteMore.jsonString()) == .ignored)

        // Quotes count as the two bytes of their escape, as in the text.
        let quoted: JSONValue = [
            "type": "event", "name": "noFill", "data": .string(String(repeating: "\"", count: 40_000)),
        ]
        #expect(FalconBridgeMessage.decode(quoted) == .ignored)

        let loose: [String: Any] = ["type": "event", "name": "noFill", "data": String(repeating: "x", count: 70_000)]
        #expect(FalconBridgeMessage.decode(any: loose) == .ignored)
        #expect(FalconBridgeMessage.decode(any: ["type": "event", "name": "noFill"] as [String: Any]) == .noFill)
    }

    @Test func dictionariesGetTheDepthLimitOfText() {
        var nested: JSONValue = 1
        for _ in 0..<63 { nested = [nested] }
        #expect(FalconBridgeMessage.decode(["type": "event", "name": "noFill", "data": nested]) == .noFill)
        #expect(FalconBridgeMessage.decode(["type": "event", "name": "noFill", "data": [nested]]) == .ignored)
    }
}
