import FalconCoreTesting
import Foundation
import Testing

/// The iOS SDK's defaults on Apple platforms (beacons on, the unified log, the main queue), with the shared logic
/// tested here and the Linux defaults asserted as they are.
@Suite("Platform defaults: beacons, the system log, the callback queue")
struct FalconPlatformDefaultsTests {
    @Test func unifiedLogEntriesKeepTheCodePublicAndTheMessagePrivate() {
        let error = FalconUnifiedLogEntry(
            SDKCoreLogRecord(
                level: .error, message: "main frame answered 503", metadata: ["code": "webviewHTTPError"],
                source: "FalconCore"))
        #expect(error.level == .error)
        #expect(error.publicText == "error webviewHTTPError")
        #expect(error.privateText == "main frame answered 503")
        #expect(!error.publicText.contains("503"))

        let warning = FalconUnifiedLogEntry(
            SDKCoreLogRecord(level: .warning, message: "surface released", source: "FalconCore"))
        #expect(warning.level == .default)
        #expect(warning.publicText == "warning")
        #expect(warning.privateText == "surface released")
        #expect(
            FalconUnifiedLogEntry(SDKCoreLogRecord(level: .debug, message: "m", source: "FalconCore")).level == .debug)

        #expect(FalconUnifiedLogEntry.subsystem == "us.falconlabs.FalconSDK")
        #expect(FalconUnifiedLogEntry.category == "diagnostics")
    }

    @Test func levelsAreOrderedAndTheStreamHandlerWritesWarningsByDefault() {
        #expect(SDKCoreLogLevel.debug < .warning && SDKCoreLogLevel.warning < .error)
        #expect(!(SDKCoreLogLevel.error < .warning))
        #expect(SDKCoreStreamLogHandler().minimumLevel == .warning)
    }

    @Test func platformDefaults() {
        let defaults = FalconClientDependencies()
        #if canImport(Darwin)
        #expect(FalconClientDependencies.platformBeaconTransport() != nil)
        #expect(defaults.beaconTransport != nil)
        #elseif os(Linux)
        // Linux: libcurl's multi interface, loaded at run time (FalconCore links no FoundationNetworking).
        #expect(FalconClientDependencies.platformBeaconTransport() is CurlBeaconTransport)
        #expect(defaults.beaconTransport is CurlBeaconTransport)
        #endif
        #if canImport(os)
        #expect(FalconClientDependencies.platformLogHandler() is FalconUnifiedLogHandler)
        #else
        // Elsewhere nothing is printed unless the host installs a log handler.
        #expect(FalconClientDependencies.platformLogHandler() == nil)
        #expect(defaults.logHandler == nil)
        #endif
    }

    @Test func executeOnNextTurnTakesAStringAnyDictionary() {
        let rig = FalconTestRig()
        rig.client.initSdk(apiKey: "KEY")
        let surface = rig.renderer([.init(at: .milliseconds(10), .loaded(height: 40))])
        let callbacks = rig.timeline.callbacks()
        let attributes: [String: Any] = [
            "user_details": ["email": "user@example.com"],
            "placement_details": ["layout_id": "APP_NATIVE_ESSENTIAL_0.1", "view": "ORDER_STATUS"],
        ]
        let pending = rig.client.executeOnNextTurn(
            attributes: attributes, placement: .inline(surface), onLoad: callbacks.onLoad)
        #expect(!pending.hasStarted && surface.commands.isEmpty)
        rig.clock.advance(by: .seconds(1))
        #expect(pending.hasStarted)
        #expect(rig.timeline.entries.contains(.callback("onLoad")))
        guard case .load(let url, _)? = surface.commands.first(where: { if case .load = $0 { true } else { false } })
        else {
            Issue.record("no load command")
            return
        }
        #expect(url.absoluteString.contains("placement=ORDER_STATUS"))
        #expect(url.absoluteString.contains("at.email=user%40example.com"))
    }

    /// The statics compile with both attribute types (never called: tests do not touch `Falcon.shared`).
    static func staticsCompile(surface: ScriptedRenderer) {
        let attributes: [String: Any] = ["placement_details": ["view": "ORDER_STATUS"]]
        let pending = Falcon.executeOnNextTurn(attributes: attributes, placement: .inline(surface))
        pending.cancel()
        Falcon.executeOnNextTurn(
            attributes: ["placement_details": ["view": "ORDER_STATUS"]] as JSONValue, placement: .overlay,
            onLoad: { print("loaded") })
    }
}
