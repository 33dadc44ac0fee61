import FalconCoreTesting
import Foundation
import Testing

/// FalconCore's lines reach the package's one log hook, and no secret or user value is in any of them.
@Suite("Falcon log hook")
struct FalconLogHookTests {
    @Test("no API key, user_details value, placement text or web content appears in a log line, diagnostic or beacon")
    func noSecrets() async {
        let secrets = ["SECRET-FALCON-KEY", "secret-user@example.com", "secret-phone-5550100", "secret-web-text"]
        let rig = FalconTestRig()
        let attributes: JSONValue = [
            "user_details": ["email": .string(secrets[1]), "phone": .string(secrets[2]), "nested": ["x": "y"]],
            "placement_details": ["layout_id": "APP_NATIVE_ESSENTIAL_0.1", "view": "ORDER_STATUS"],
        ]
        rig.execute(attributes, placement: .inline(rig.renderer([])))  // before initSdk: initNotCalled
        rig.client.initSdk(apiKey: secrets[0])
        let failing = rig.renderer([
            .init(at: .milliseconds(5), .postJSON("{\"name\": \"\(secrets[3])\"")),
            .init(at: .milliseconds(6), .postJSON("{\"name\": \"\(secrets[3])\", \"type\": \"event\"}")),
            .init(at: .milliseconds(7), .post(["name": .string(secrets[3]), "type": "unknown"])),
            .init(at: .milliseconds(10), .respond(status: 503)),
        ])
        rig.execute(attributes, placement: .inline(failing))
        rig.execute(attributes, placement: .inline(rig.renderer([])))  // times out
        rig.execute(attributes, placement: .overlay)  // no presenter
        rig.clock.advance(by: .seconds(20))
        await rig.client.waitForPendingBeacons()

        let lines =
            rig.logs.records.flatMap { [$0.message] + $0.metadata.values }
            + rig.timeline.entries.map(\.description)
            + rig.timeline.beaconRequests.map { String(decoding: $0.body, as: UTF8.self) + $0.url.absoluteString }
        #expect(rig.logs.records.contains { $0.falconDiagnosticCode == .webviewHTTPError && $0.level == .error })
        #expect(rig.logs.records.contains { $0.level == .debug })
        #expect(rig.logs.records.allSatisfy { $0.source == "FalconCore" })
        for secret in secrets {
            #expect(!lines.contains { $0.contains(secret) }, "\(secret) appeared")
        }
    }
}
