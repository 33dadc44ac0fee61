import FalconCore
import FalconCoreTesting
import Foundation
import Testing

/// The API key lives in the client's state and in the webview URL it loads (the one place it must go);
/// printing or dumping the client, the shared facade or a configuration never shows it.
@Suite("Falcon key redaction")
struct FalconKeyRedactionTests {
    static let key = "fk_live_81c2d3e4f5a6"

    @Test("dumping or printing a client with a running execution shows no key")
    func clientRedactsTheKey() {
        let rig = FalconTestRig()
        rig.client.initSdk(apiKey: Self.key, config: FalconConfig(placementMapping: ["ORDER_STATUS": "P"]))
        let renderer = rig.renderer([])
        rig.execute(["placement_details": ["view": "ORDER_STATUS"]], placement: .inline(renderer))
        rig.executor.runAll()
        #expect(renderer.commands.contains { "\($0)".contains(Self.key) }, "the key reaches the webview URL")

        var dumped = ""
        dump(rig.client, to: &dumped)
        #expect(!dumped.contains(Self.key))
        #expect(!"\(rig.client)".contains(Self.key))
        #expect(!String(reflecting: rig.client).contains(Self.key))
        #expect(!String(describing: FalconConfig()).contains(Self.key))
    }
}
