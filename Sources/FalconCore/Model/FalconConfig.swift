#if canImport(FoundationEssentials)
public import FoundationEssentials
#else
public import Foundation
#endif

/// The configuration passed to ``Falcon/initSdk(apiKey:config:)``.
///
/// Every execution takes a snapshot of the configuration active when it starts; a later `initSdk` affects
/// only executions started after it.
///
/// ```swift
/// let config = FalconConfig(placementMapping: ["ORDER_STATUS": "your-falcon-placement-id"])
/// Falcon.initSdk(apiKey: "YOUR_API_KEY", config: config)
/// ```
public struct FalconConfig: Sendable, Hashable {
    /// The default web frontend, `https://pr.falconlabs.us`.
    @usableFromInline package static let defaultBaseURL = URL(string: "https://pr.falconlabs.us")!

    /// The default beacon endpoint, used when ``diagnosticsURL`` is `nil`.
    ///
    /// The public documentation does not name Falcon's endpoint; this value is the one place to change
    /// once Falcon confirms it (Docs/Decisions/0103-default-beacon-endpoint-and-transport.md).
    package static let defaultDiagnosticsURL = URL(string: "https://pr.falconlabs.us/sdk/diagnostics")!

    /// Base URL of the Falcon web frontend (default `https://pr.falconlabs.us`); the SDK appends `/ui/webview`.
    ///
    /// It must be `https://`: the webview URL carries the API key, so `http://` is accepted only for a loopback
    /// host (`127.0.0.1`, `localhost`, `[::1]`). Any other base is refused: ``FalconClient/initSdk(apiKey:config:)``
    /// logs a warning and every execute fails with ``FalconDiagnosticCode/urlConstructionFailed``.
    public var baseURL: URL
    /// Maps `"<layout_id>/<view>"`, `"<view>"` or `"<layout_id>"` to Falcon placement identifiers.
    public var placementMapping: [String: String]
    /// When `true` (the default), PII-free error beacons are posted on failures.
    public var diagnosticBeaconsEnabled: Bool
    /// Overrides the beacon endpoint; `nil` (the default) sends beacons to the Falcon backend.
    ///
    /// A URL whose scheme is not `http` or `https` drops every beacon.
    public var diagnosticsURL: URL?

    /// Creates a configuration; every parameter has the documented default.
    public init(
        baseURL: URL = FalconConfig.defaultBaseURL,
        placementMapping: [String: String] = [:],
        diagnosticBeaconsEnabled: Bool = true,
        diagnosticsURL: URL? = nil
    ) {
        self.baseURL = baseURL
        self.placementMapping = placementMapping
        self.diagnosticBeaconsEnabled = diagnosticBeaconsEnabled
        self.diagnosticsURL = diagnosticsURL
    }
}
