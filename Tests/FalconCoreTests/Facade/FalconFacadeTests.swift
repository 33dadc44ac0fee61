import FalconCoreTesting
import Foundation
import Testing

/// The seed's call sites compile unchanged against the facade. The functions are never called: tests never
/// touch the shared client (tests run in parallel in one process).
@Suite("Facade parity with the seed")
struct FalconFacadeTests {
    class MyDiagnosticsHandler: FalconDiagnosticsDelegate {
        func falconDidEncounter(_ diagnostic: FalconDiagnostic) {
            _ = diagnostic.code.rawValue
        }
    }

    static func seedSnippets(embeddedView: ScriptedRenderer) {
        Falcon.initSdk(apiKey: "YOUR_API_KEY")
        let attributes: [String: Any] = [
            "user_details": ["email": "user@example.com", "first_name": "Jane", "last_name": "Smith"],
            "placement_details": ["layout_id": "APP_NATIVE_ESSENTIAL_0.1", "view": "ORDER_STATUS"],
        ]
        Falcon.execute(attributes: attributes, placement: .inline(embeddedView))
        Falcon.execute(attributes: attributes, placement: .inline(embeddedView), isSandbox: true)
        Falcon.execute(
            attributes: attributes,
            placement: .overlay,
            onLoad: { print("overlay loaded") },
            onUnload: { print("overlay dismissed") },
            onError: { error in print("overlay error: \(error)") }
        )
        let style = FalconStyle(
            widgetBackgroundColor: .clear,
            slotBackgroundColor: .white,
            acceptButtonBackgroundColor: FalconColor(red: 0, green: 0.514, blue: 0.388, alpha: 1),
            acceptButtonTextColor: .white,
            promoCodeBackgroundColor: FalconColor(red: 0.176, green: 0.655, blue: 0.518, alpha: 1),
            fontFamily: "Roboto"
        )
        Falcon.execute(attributes: attributes, placement: .inline(embeddedView), style: style)
        Falcon.execute(
            attributes: attributes,
            placement: .inline(embeddedView),
            onLoad: { print("placement loaded") },
            onUnload: { print("placement unloaded") },
            onError: { error in print("placement error: \(error)") },
            onShouldShowLoadingIndicator: { print("start") },
            onShouldHideLoadingIndicator: { print("stop") }
        )
        Falcon.events(layoutId: "APP_NATIVE_ESSENTIAL_0.1") { event in
            switch event {
            case .placementInteractive: print("placement is interactive")
            case .placementCompleted: print("placement completed")
            case .placementFailure(let error): print("placement failed: \(error)")
            }
        }
        Falcon.removeEventsHandler(layoutId: "APP_NATIVE_ESSENTIAL_0.1")
        Falcon.diagnosticsDelegate = MyDiagnosticsHandler()
        Falcon.initSdk(apiKey: "YOUR_API_KEY", config: FalconConfig(placementMapping: ["ORDER_STATUS": "id"]))
        Falcon.initSdk(apiKey: "YOUR_API_KEY", config: FalconConfig(diagnosticBeaconsEnabled: false))
        Falcon.initSdk(apiKey: "K", config: FalconConfig(diagnosticsURL: URL(string: "https://t.example")))
        // A dictionary literal with nested dictionaries, numbers and booleans compiles without a type annotation.
        Falcon.execute(
            attributes: [
                "user_details": ["email": "user@example.com", "age": 42, "vip": true],
                "placement_details": ["layout_id": "APP_NATIVE_ESSENTIAL_0.1", "view": "ORDER_STATUS"],
            ],
            placement: .overlay
        )
        print("FalconSDK \(Falcon.version)")
    }

    @Test func versionAndCodes() {
        _ = Self.seedSnippets
        #expect(Falcon.version == "1.3.1")
        #expect(FalconDiagnosticCode.allCases.count == 9)
        #expect(FalconDiagnosticCode.webviewHTTPError.rawValue == "webviewHTTPError")
        #expect(FalconConfig().baseURL.absoluteString == "https://pr.falconlabs.us")
        #expect(FalconConfig().diagnosticBeaconsEnabled)
        #expect(FalconConfig().diagnosticsURL == nil)
    }

    @Test func badBaseURLFailsWithURLConstruction() {
        let rig = FalconTestRig()
        rig.client.initSdk(apiKey: "KEY", config: FalconConfig(baseURL: URL(string: "ftp://pr.falconlabs.us")!))
        rig.execute(["placement_details": ["view": "V"]], placement: .inline(rig.renderer([])))
        rig.executor.runAll()
        #expect(rig.timeline.entries(excludingBeacons: true).dropFirst().first == .diagnostic(.urlConstructionFailed))
    }

    @Test func diagnosticsCarryCappedIdentifiersAndNoUserData() async throws {
        let rig = FalconTestRig()
        let delegate = RecordingDiagnosticsDelegate()
        rig.client.diagnosticsDelegate = delegate
        rig.client.initSdk(apiKey: "KEY-123")
        let view = String(repeating: "🦅", count: 200)
        rig.execute(
            [
                "user_details": ["email": "jane@example.com"],
                "placement_details": ["view": .string(view), "layout_id": " L "],
            ],
            placement: .inline(rig.renderer([.init(at: .zero, .respond(status: 414))]))
        )
        rig.clock.advance(by: .seconds(1))
        await rig.client.waitForPendingBeacons()
        let diagnostic = try #require(delegate.diagnostics.first)
        #expect(diagnostic.code == .webviewHTTPError)
        #expect(diagnostic.message == "the main-frame response had HTTP status 414")
        #expect(diagnostic.placement == String(repeating: "🦅", count: 128))
        #expect(diagnostic.layoutId == "L")
        let body = String(decoding: try #require(rig.timeline.beaconRequests.first).body, as: UTF8.self)
        #expect(body.contains("\"placement\":\"\(String(repeating: "🦅", count: 128))\""))
        #expect(!body.contains("jane") && !body.contains("KEY-123"))
    }
}
