import FalconCoreTesting
import Foundation
import Testing

// The Falcon seed's snippets that declare or install something, compiled in Swift 6 mode exactly as a host
// pastes them. Only the declarations of the app's own things the snippets name (`MyErrorTracker`, `mySpinner`,
// `attributes`, `embeddedView`) and UIKit's `UIColor` (FalconColor on Linux) are added around them. Left out: the
// UIKit (`AppDelegate`, `UIViewController`, `NSLayoutConstraint`) and SwiftUI snippets, which need those
// frameworks, and `import FalconSDK` (the module here is FalconCore).

/// The app's error tracker the diagnostics snippet calls.
enum MyErrorTracker {
    static let captured = LockedValue<[String]>([])

    static func capture(_ code: String) {
        captured.withLock { $0.append(code) }
    }
}

/// UIKit's color type in the style snippet; FalconCore's portable color on Linux.
private typealias UIColor = FalconColor

/// The app's loading indicator the callbacks snippet drives.
private final class Spinner: Sendable {
    func startAnimating() {}
    func stopAnimating() {}
}

// MARK: Seed: Diagnostics — host delegate (verbatim)

// The seed's text, exactly as a host pastes it (not reformatted).
// swift-format-ignore
class MyDiagnosticsHandler: FalconDiagnosticsDelegate {
    func falconDidEncounter(_ diagnostic: FalconDiagnostic) {
        // diagnostic.code     — FalconDiagnosticCode (granular reason)
        // diagnostic.message  — human-readable description (local only)
        // diagnostic.placement, diagnostic.layoutId — routing context
        MyErrorTracker.capture(diagnostic.code.rawValue)
    }
}

/// The seed's installing snippets against ``Falcon``'s shared client. Compiled, never called: tests run in
/// parallel in one process and never touch the shared client; the tests below run the same code on a rig's client.
@Suite("Falcon seed snippets, verbatim")
struct FalconSeedSnippetTests {
    // The seed's text, exactly as a host pastes it (not reformatted).
    // swift-format-ignore
    fileprivate static func installingSnippets(embeddedView: ScriptedRenderer, mySpinner: Spinner) {
        let attributes: [String: Any] = [
            "user_details": [
                "email": "user@example.com",
                "first_name": "Jane",
                "last_name": "Smith"
            ],
            "placement_details": [
                "layout_id": "APP_NATIVE_ESSENTIAL_0.1",
                "view": "ORDER_STATUS"
            ]
        ]

        // Execute
        Falcon.execute(attributes: attributes, placement: .inline(embeddedView))

        // Initialize
        Falcon.initSdk(apiKey: "YOUR_API_KEY")

        // Diagnostics: in your AppDelegate or app init
        Falcon.diagnosticsDelegate = MyDiagnosticsHandler()

        // Configuration
        let config = FalconConfig(
            placementMapping: [
                "ORDER_STATUS": "your-falcon-placement-id"
            ]
        )

        Falcon.initSdk(apiKey: "YOUR_API_KEY", config: config)

        // Error beacons
        Falcon.initSdk(
            apiKey: "YOUR_API_KEY",
            config: FalconConfig(diagnosticBeaconsEnabled: false)
        )

        // Events
        Falcon.events(layoutId: "APP_NATIVE_ESSENTIAL_0.1") { event in
            switch event {
            case .placementInteractive:
                print("placement is interactive")
            case .placementCompleted:
                print("placement completed")
            case .placementFailure(let error):
                print("placement failed: \(error)")
            }
        }

        Falcon.removeEventsHandler(layoutId: "APP_NATIVE_ESSENTIAL_0.1")

        // Callbacks
        Falcon.execute(
            attributes: attributes,
            placement: .inline(embeddedView),
            onLoad: {
                print("placement loaded")
            },
            onUnload: {
                print("placement unloaded")
            },
            onError: { error in
                print("placement error: \(error)")
            },
            onShouldShowLoadingIndicator: {
                mySpinner.startAnimating()
            },
            onShouldHideLoadingIndicator: {
                mySpinner.stopAnimating()
            }
        )

        // Style
        let style = FalconStyle(
            widgetBackgroundColor: .clear,
            slotBackgroundColor: .white,
            acceptButtonBackgroundColor: UIColor(red: 0, green: 0.514, blue: 0.388, alpha: 1),
            acceptButtonTextColor: .white,
            promoCodeBackgroundColor: UIColor(red: 0.176, green: 0.655, blue: 0.518, alpha: 1),
            fontFamily: "Roboto"
        )

        Falcon.execute(
            attributes: attributes,
            placement: .inline(embeddedView),
            style: style
        )

        // Sandbox mode
        Falcon.execute(
            attributes: attributes,
            placement: .inline(embeddedView),
            isSandbox: true   // development only
        )

        print("FalconSDK \(Falcon.version)")  // e.g. "1.3.1"
    }

    @Test("The seed's non-final delegate class receives every diagnostic, and the app may keep a reference to it")
    func seedDelegateReceivesDiagnostics() async throws {
        _ = Self.installingSnippets
        let rig = FalconTestRig()
        // As the seed installs it; the app keeps its own reference as well (a non-Sendable class).
        let handler = MyDiagnosticsHandler()
        rig.client.diagnosticsDelegate = handler
        rig.client.initSdk(apiKey: "KEY")
        let before = MyErrorTracker.captured.withLock { $0.count }
        rig.execute(
            ["placement_details": ["view": "V"]],
            placement: .inline(rig.renderer([.init(at: .zero, .respond(status: 500))])))
        rig.clock.advance(by: .seconds(1))
        rig.executor.runAll()
        let captured = MyErrorTracker.captured.withLock { Array($0.dropFirst(before)) }
        #expect(captured.contains("webviewHTTPError"))
        #expect(rig.client.diagnosticsDelegate as AnyObject === handler)
        // Installing the same delegate again compiles and keeps it.
        rig.client.diagnosticsDelegate = handler
        #expect(rig.client.diagnosticsDelegate as AnyObject === handler)
    }
}
