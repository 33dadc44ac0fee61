import FalconCore
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
}
