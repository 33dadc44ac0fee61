import FalconCoreTesting
import Foundation
import Testing

/// The host's call for a placement link: it must give what an execute loads or reports.
@Suite("FalconConfig.placementURL")
struct FalconPlacementURLTests {
    /// A client on kit parts with a fixed session id; what it loads and reports for `attributes`.
    static func execute(
        _ attributes: JSONValue, config: FalconConfig, apiKey: String = "KEY", isSandbox: Bool = false,
        style: FalconStyle? = nil
    ) -> (loaded: URL?, diagnostics: [FalconDiagnostic]) {
        let executor = ManualFalconExecutor()
        let clock = ManualFalconClock(executor: executor)
        let delegate = RecordingDiagnosticsDelegate()
        let client = FalconClient(
            dependencies: FalconClientDependencies(
                executor: executor, clock: clock, idSource: FixedFalconIDSource("S-1"),
                beaconTransport: RecordingBeaconTransport(), logHandler: InMemoryLogHandler()))
        client.diagnosticsDelegate = delegate
        client.initSdk(apiKey: apiKey, config: config)
        let surface = ScriptedRenderer(clock: clock, script: [])
        client.execute(attributes: attributes, placement: .inline(surface), style: style, isSandbox: isSandbox)
        clock.advance(by: .seconds(1))
        let loaded = surface.commands.compactMap { command -> URL? in
            if case .load(let url, _) = command { url } else { nil }
        }
        return (loaded.first, delegate.diagnostics)
    }

    @Test("The URL is the one an execute loads, with the same session id, sandbox flag and style")
    func sameURLAsExecute() throws {
        let config = FalconConfig(placementMapping: ["L/ORDER_STATUS": "p-1"])
        let attributes: JSONValue = [
            "user_details": ["email": "a+b@example.com", "first_name": "Jane", "tier": 3],
            "placement_details": ["layout_id": "L", "view": "ORDER_STATUS"],
        ]
        let style = FalconStyle(slotBackgroundColor: .white, fontFamily: "Roboto")
        let url = try config.placementURL(
            attributes: attributes, apiKey: "KEY", sessionId: "S-1", isSandbox: true, style: style
        ).get()
        let executed = Self.execute(attributes, config: config, isSandbox: true, style: style)
        #expect(executed.loaded == url)
        #expect(
            url.absoluteString.hasPrefix("https://pr.falconlabs.us/ui/webview?placement=p-1&apiKey=KEY&sessionId=S-1"))
    }

    @Test("Unresolved attributes fail with the diagnostic an execute reports")
    func unresolvedAttributes() {
        let config = FalconConfig()
        let attributes: JSONValue = ["placement_details": ["layout_id": "UNKNOWN"]]
        let result = config.placementURL(attributes: attributes, apiKey: "KEY", sessionId: "S-1")
        let executed = Self.execute(attributes, config: config)
        #expect(executed.loaded == nil)
        #expect(result == .failure(executed.diagnostics[0]))
        #expect(executed.diagnostics[0].code == .attributeMappingFailed)
        #expect(executed.diagnostics[0].layoutId == "UNKNOWN")
    }

    @Test("A refused base URL or a blank key fails with urlConstructionFailed, as an execute does")
    func refusedURL() {
        let attributes: JSONValue = ["placement_details": ["layout_id": "L", "view": "V"]]
        let cleartext = FalconConfig(baseURL: URL(string: "http://example.com")!)
        let refused = cleartext.placementURL(attributes: attributes, apiKey: "KEY", sessionId: "S-1")
        let executed = Self.execute(attributes, config: cleartext)
        #expect(refused == .failure(executed.diagnostics[0]))
        #expect(executed.diagnostics[0].code == .urlConstructionFailed)
        #expect(executed.diagnostics[0].placement == "V")

        let blankKey = FalconConfig().placementURL(attributes: attributes, apiKey: "  ", sessionId: "S-1")
        #expect(blankKey == .failure(Self.execute(attributes, config: FalconConfig(), apiKey: "  ").diagnostics[0]))
    }
}
