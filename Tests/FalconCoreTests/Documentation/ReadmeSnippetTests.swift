import FalconCoreTesting
import Foundation
import Testing

/// The README's diagnostics delegate, verbatim.
final class PrintingDiagnostics: FalconDiagnosticsDelegate {
    func falconDidEncounter(_ diagnostic: FalconDiagnostic) {
        print("diagnostic:", diagnostic.code.rawValue, diagnostic.layoutId ?? "-")
    }
}

/// The README's Falcon quick start, kept here so that it compiles and runs with every `swift test`.
///
/// The quick start runs on the test kit (a manual clock and a scripted web view), so it is the README's code
/// block without any change; the expectations after it check what its comments promise. If the README
/// changes, change it here too (and the other way round).
@Suite("README: the Falcon quick start")
struct FalconReadmeSnippetTests {
    @Test("The quick start loads a mapped placement, resizes the surface and reports an unmapped one")
    func quickStart() async throws {
        // README, verbatim from here.
        let rig = FalconTestRig()  // a FalconClient on virtual time; an app calls the `Falcon` statics instead
        let falcon = rig.client
        falcon.initSdk(apiKey: "YOUR_API_KEY", config: FalconConfig(placementMapping: ["ORDER_STATUS": "p-123"]))
        falcon.diagnosticsDelegate = PrintingDiagnostics()
        falcon.events(layoutId: "APP_NATIVE_ESSENTIAL_0.1") { event in print("event:", event.name) }

        // The surface plays the web view: 240 points of content after 100 ms, then 80 % of it on screen.
        let surface = rig.renderer([
            .init(at: .milliseconds(100), .loaded(height: 240)),
            .init(at: .milliseconds(200), .visibility(0.8)),
        ])
        falcon.execute(
            attributes: [
                "user_details": ["email": "user@example.com", "first_name": "Jane"],
                "placement_details": ["layout_id": "APP_NATIVE_ESSENTIAL_0.1", "view": "ORDER_STATUS"],
            ],
            placement: .inline(surface),
            onLoad: { print("loaded, height", surface.contentHeight) },
            onError: { error in print("error:", error) }
        )
        rig.clock.advance(by: .seconds(2))  // "loaded, height 240.0", then "event: placementInteractive"

        // Attributes that resolve to no placement fail with a diagnostic and a beacon without user data.
        falcon.execute(
            attributes: ["placement_details": ["layout_id": "UNKNOWN"]],
            placement: .inline(rig.renderer([])),
            onError: { error in print("error:", error) }
        )
        rig.clock.advance(by: .seconds(1))  // "diagnostic: attributeMappingFailed UNKNOWN", "error: placementLoadError"
        // README ends here.

        let loads = surface.commands.compactMap { command -> URL? in
            if case .load(let url, _) = command { return url }
            return nil
        }
        let url = try #require(loads.first)
        #expect(url.absoluteString.hasPrefix("https://pr.falconlabs.us/ui/webview?placement=p-123&apiKey=YOUR_API_KEY"))
        #expect(url.absoluteString.contains("at.email=user%40example.com"))
        #expect(surface.contentHeight == 240)
        #expect(falcon.activeExecutionCount == 1)  // the loaded placement stays until it closes
        await falcon.waitForPendingBeacons()
        #expect(rig.timeline.beaconCodes == [.attributeMappingFailed])
        let beacon = try #require(rig.timeline.beaconRequests.first)
        let body = String(decoding: beacon.body, as: UTF8.self)
        #expect(body.contains("\"layoutId\":\"UNKNOWN\""))
        #expect(!body.contains("YOUR_API_KEY"))
    }
}
